package dev.lnp.plugins.mcp.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque {@code tools/list} cursor: the offset of the next page in the caller's catalog, which is stable
 * for a key and a deployment (registry order). A cursor that does not decode is an invalid parameter.
 */
final class Cursor {

    private static final String PREFIX = "tools:";

    private Cursor() {
    }

    static String encode(int offset) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((PREFIX + offset).getBytes(StandardCharsets.UTF_8));
    }

    static int decode(String cursor) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (text.startsWith(PREFIX)) {
                int offset = Integer.parseInt(text.substring(PREFIX.length()));
                if (offset >= 0) {
                    return offset;
                }
            }
        } catch (IllegalArgumentException e) {
            // falls through to the failure below (NumberFormatException is one too)
        }
        throw new JsonRpc.Failure(JsonRpc.INVALID_PARAMS, "Invalid cursor: " + cursor);
    }
}
