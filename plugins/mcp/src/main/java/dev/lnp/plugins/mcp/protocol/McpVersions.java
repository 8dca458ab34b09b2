package dev.lnp.plugins.mcp.protocol;

import java.util.List;

/**
 * The MCP protocol revisions served, newest first. All use the Streamable HTTP transport. The 2025 revisions are
 * "legacy" in 2026-07-28's terms (an {@code initialize} handshake opens them); they differ here in batching
 * (2025-03-26 only) and in structured tool output and titles (from 2025-06-18). 2026-07-28 is "modern": no
 * handshake, every request carries its version and capabilities in {@code _meta} and mirrors its method and name
 * in headers ({@link StatelessRequest}).
 */
public final class McpVersions {

    public static final String V2026_07_28 = "2026-07-28";
    public static final String V2025_11_25 = "2025-11-25";
    public static final String V2025_06_18 = "2025-06-18";
    public static final String V2025_03_26 = "2025-03-26";

    /** Every revision served, as {@code server/discover} and the version errors list them. */
    public static final List<String> SUPPORTED = List.of(V2026_07_28, V2025_11_25, V2025_06_18, V2025_03_26);
    /** The revisions an {@code initialize} handshake can choose; 2026-07-28 has no handshake. */
    static final List<String> HANDSHAKE = List.of(V2025_11_25, V2025_06_18, V2025_03_26);
    /** The newest revision {@code initialize} offers. */
    public static final String LATEST_HANDSHAKE = V2025_11_25;

    /** What a request without {@code MCP-Protocol-Version} is taken to speak, as the transport spec says. */
    public static final String WITHOUT_HEADER = V2025_03_26;

    private McpVersions() {
    }

    /**
     * The answer to {@code initialize}: the client's version when a handshake revision, else the newest of
     * those (a client asking 2026-07-28 through {@code initialize} is speaking the handshake protocol).
     */
    static String negotiate(String requested) {
        return HANDSHAKE.contains(requested) ? requested : LATEST_HANDSHAKE;
    }

    /** 2026-07-28: per-request {@code _meta}, routing headers, {@code resultType}, no handshake. */
    static boolean isStateless(String version) {
        return V2026_07_28.equals(version);
    }

    /** JSON-RPC batches (arrays) exist only in 2025-03-26; 2025-06-18 removed them. */
    static boolean allowsBatches(String version) {
        return V2025_03_26.equals(version);
    }

    /** {@code title}, {@code outputSchema} and {@code structuredContent} arrived in 2025-06-18. */
    static boolean hasStructuredOutput(String version) {
        return !V2025_03_26.equals(version);
    }
}
