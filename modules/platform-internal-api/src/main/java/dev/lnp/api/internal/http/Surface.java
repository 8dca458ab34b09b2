package dev.lnp.api.internal.http;

/**
 * The public surface a route belongs to. It chooses the per-key rate-limit budget and the audit label; routes of
 * the MCP surface also have the request's {@code Origin} validated before anything else (DNS-rebinding defence).
 * Every route a plugin declares with {@code Registrar.route} is on {@link #REST}; only a first-party plugin puts one
 * on another surface, with {@link SurfaceRegistrar}.
 */
public enum Surface {
    /** The REST API ({@code lnp.limits.rest_per_minute}). */
    REST,
    /** The hosted MCP endpoints ({@code lnp.limits.mcp_per_minute}). */
    MCP;

    /** The name used in rate-limit headers, configuration and the audit log. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
