package dev.lnp.api.http;

/**
 * The public surface a route belongs to. It chooses the per-key rate-limit budget and the audit label; routes of
 * the MCP surface also have the request's {@code Origin} validated before anything else (DNS-rebinding defence).
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
