package dev.lnp.plugins.chatbot;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The widget loader {@code widget/widget.js} from this plugin's jar, read once at start: its bytes, its SRI hash
 * ({@code sha384-…}, published in each widget's embed snippet) and a strong ETag. Absent when the jar has none.
 */
record WidgetScript(byte[] bytes, String integrity, String etag, String version) {

    static final String RESOURCE = "widget/widget.js";

    static WidgetScript load() {
        try (InputStream in = WidgetScript.class.getModule().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return null;
            }
            byte[] bytes = in.readAllBytes();
            byte[] sha384 = MessageDigest.getInstance("SHA-384").digest(bytes);
            String hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)).substring(0, 16);
            return new WidgetScript(bytes, "sha384-" + Base64.getEncoder().encodeToString(sha384),
                    "\"" + hex + "\"", hex);
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot read " + RESOURCE, e);
        }
    }
}
