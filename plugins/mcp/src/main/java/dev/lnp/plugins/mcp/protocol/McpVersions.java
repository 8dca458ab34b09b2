package dev.lnp.plugins.mcp.protocol;

import java.util.List;

/**
 * The MCP protocol revisions served, newest first. All three use the Streamable HTTP transport; they differ
 * here in batching (2025-03-26 only) and in structured tool output and titles (from 2025-06-18).
 */
public final class McpVersions {

    public static final String V2025_11_25 = "2025-11-25";
    public static final String V2025_06_18 = "2025-06-18";
    public static final String V2025_03_26 = "2025-03-26";

    public static final List<String> SUPPORTED = List.of(V2025_11_25, V2025_06_18, V2025_03_26);
    public static final String LATEST = V2025_11_25;

    /** What a request without {@code MCP-Protocol-Version} is taken to speak, as the transport spec says. */
    public static final String WITHOUT_HEADER = V2025_03_26;

    private McpVersions() {
    }

    /** The answer to {@code initialize}: the client's version when served, else the newest. */
    static String negotiate(String requested) {
        return SUPPORTED.contains(requested) ? requested : LATEST;
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
