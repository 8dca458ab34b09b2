/**
 * The platform's private SPI: what only first-party plugins use (the tool gateway behind the hosted MCP surface, the
 * surface a route belongs to, and the services the agent trials and the chatbot build on: API keys, workspace
 * provisioning, pages for people, session tokens, OpenAPI documents of a plugin's own routes), kept out of {@code lnp.platform.api} so that third-party plugins
 * compile against the public API alone. Like Keycloak's server-spi-private it may change with any release.
 */
module lnp.platform.api.internal {
    requires transitive lnp.platform.api;

    exports dev.lnp.api.internal.http;
    exports dev.lnp.api.internal.mcp;
    exports dev.lnp.api.internal.keys;
    exports dev.lnp.api.internal.workspaces;
    exports dev.lnp.api.internal.tokens;
    exports dev.lnp.api.internal.people;
    exports dev.lnp.api.internal.openapi;
    exports dev.lnp.api.internal.events;

    opens dev.lnp.api.internal.mcp to com.fasterxml.jackson.databind;
}
