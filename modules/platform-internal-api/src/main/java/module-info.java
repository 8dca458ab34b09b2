/**
 * The platform's private SPI: what only first-party plugins use (the tool gateway behind the hosted MCP surface, the
 * surface a route belongs to, and the services the agent trials and the chatbot build on: API keys, workspace
 * provisioning, pages for people, session tokens, OpenAPI documents of a plugin's own routes, event subscriptions),
 * and the seam of the kernel's subsystems (mail, the console, webhooks) with the kernel services they use. Kept out
 * of {@code lnp.platform.api} so that third-party plugins compile against the public API alone. Like Keycloak's
 * server-spi-private it may change with any release.
 */
module lnp.platform.api.internal {
    requires transitive lnp.platform.api;
    // The plugin catalog lists the plugins' pages; the console and the subsystems that declare pages need it.
    requires transitive lnp.platform.pages;
    // The console's extension point and the subsystems' routes are Helidon's; the protocol plugins compiling
    // against this API need none of it, and at run time the kernel has it on the module path.
    requires static io.helidon.webserver;

    exports dev.lnp.api.internal.console;
    exports dev.lnp.api.internal.db;
    exports dev.lnp.api.internal.events;
    exports dev.lnp.api.internal.http;
    exports dev.lnp.api.internal.keys;
    exports dev.lnp.api.internal.mail;
    exports dev.lnp.api.internal.mcp;
    exports dev.lnp.api.internal.openapi;
    exports dev.lnp.api.internal.people;
    exports dev.lnp.api.internal.platform;
    exports dev.lnp.api.internal.subsystem;
    exports dev.lnp.api.internal.tokens;
    exports dev.lnp.api.internal.workspaces;

    // The kernel finds its first-party subsystems (mail, the console, webhooks) through this seam.
    uses dev.lnp.api.internal.subsystem.Subsystem;

    opens dev.lnp.api.internal.mcp to com.fasterxml.jackson.databind;
}
