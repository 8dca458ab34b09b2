package dev.lnp.plugins.chatbot;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The widget loader {@code widget/widget.js} from this plugin's jar: its bytes, read at start (a jar that cannot
 * be read still fails the start), and, computed at first use, its SRI hash ({@code sha384-…}, published in each
 * widget's embed snippet) and a strong ETag. Hashing at start cost a restart the JDK's security providers and two
 * digests before any request could need them. Absent when the jar has none.
 */
final class WidgetScript {

    static final String RESOURCE = "widget/widget.js";

    private final byte[] bytes;
    private volatile Hashes hashes;

    private record Hashes(String integrity, String etag, String version) {
    }

    private WidgetScript(byte[] bytes) {
        this.bytes = bytes;
    }

    static WidgetScript load() {
        try (InputStream in = WidgetScript.class.getModule().getResourceAsStream(RESOURCE)) {
            return in == null ? null : new WidgetScript(in.readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE, e);
        }
    }

    byte[] bytes() {
        return bytes;
    }

    /** {@code sha384-} and the Base64 of the script's SHA-384, for the embed snippet's {@code integrity}. */
    String integrity() {
        return hashes().integrity();
    }

    /** The quoted version, a strong ETag. */
    String etag() {
        return hashes().etag();
    }

    /** The first 16 hex digits of the script's SHA-256: the {@code ?v=} of the snippet's URL. */
    String version() {
        return hashes().version();
    }

    /** Computed once; two threads racing here compute the same values, so either may win. */
    private Hashes hashes() {
        Hashes computed = hashes;
        if (computed == null) {
            computed = compute(bytes);
            hashes = computed;
        }
        return computed;
    }

    private static Hashes compute(byte[] bytes) {
        try {
            byte[] sha384 = MessageDigest.getInstance("SHA-384").digest(bytes);
            String hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)).substring(0, 16);
            return new Hashes("sha384-" + Base64.getEncoder().encodeToString(sha384), "\"" + hex + "\"", hex);
        } catch (NoSuchAlgorithmException e) {
            // Every Java runtime must provide SHA-256 and SHA-384 (java.security.MessageDigest's documentation).
            throw new IllegalStateException("cannot hash " + RESOURCE, e);
        }
    }
}
