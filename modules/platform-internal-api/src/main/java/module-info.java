/**
 * The platform's private SPI: what only first-party protocol plugins use (the tool gateway behind the hosted MCP
 * surface, the surface a route belongs to), kept out of {@code lnp.platform.api} so that third-party plugins
 * compile against the public API alone. Like Keycloak's server-spi-private it may change with any release.
 */
module lnp.platform.api.internal {
    requires transitive lnp.platform.api;

    exports dev.lnp.api.internal.http;
    exports dev.lnp.api.internal.mcp;

    opens dev.lnp.api.internal.mcp to com.fasterxml.jackson.databind;
}
