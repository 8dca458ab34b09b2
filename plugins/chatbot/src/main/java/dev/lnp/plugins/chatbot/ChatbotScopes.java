package dev.lnp.plugins.chatbot;

/** The chatbot's management scopes. The public chat endpoints take a widget key or token, never a scope. */
public final class ChatbotScopes {

    public static final String READ = "chatbot.read";
    public static final String WRITE = "chatbot.write";

    private ChatbotScopes() {
    }
}
