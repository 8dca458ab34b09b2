/** The chatbot plugin: widgets and their public chat endpoints. Built only against the platform API. */
module dev.lnp.plugins.chatbot {
    requires lnp.platform.api;
    requires lnp.platform.pages;
    requires lnp.platform.api.internal;
    requires org.jsoup;
    requires com.nimbusds.jose.jwt;
    requires langchain4j.core;
    requires langchain4j.embeddings;
    requires langchain4j.embeddings.all.minilm.l6.v2.q;

    exports dev.lnp.plugins.chatbot.api; // for responder plugins

    provides dev.lnp.api.PlatformPlugin with dev.lnp.plugins.chatbot.ChatbotPlugin;
}
