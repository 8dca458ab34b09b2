package dev.lnp.api.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * What a raw route answers, written as is: either a byte array, or a {@link StreamBody} the platform calls with
 * the response's output stream (e.g. Server-Sent Events), which may write and flush for as long as it likes.
 *
 * @param contentType the body's media type, or {@code null} when there is no body
 * @param body the bytes to send; {@code null} for none (or for a streamed answer)
 * @param stream writes a streamed body; {@code null} unless made with {@link #stream}
 */
public record RawResponse(int status, Map<String, String> headers, String contentType, byte[] body,
        StreamBody stream) {

    public RawResponse {
        headers = Map.copyOf(headers);
        if (body != null && stream != null) {
            throw new IllegalArgumentException("a raw response has bytes or a stream, not both");
        }
    }

    public RawResponse(int status, Map<String, String> headers, String contentType, byte[] body) {
        this(status, headers, contentType, body, null);
    }

    public static RawResponse json(int status, String json) {
        return new RawResponse(status, Map.of(), "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    public static RawResponse empty(int status) {
        return new RawResponse(status, Map.of(), null, null);
    }

    /**
     * A streamed answer: the platform sends the status and headers, then calls {@code body} on the request's
     * (virtual) thread with the response's output stream; the answer ends when {@code body} returns. No read
     * deadline applies while it runs. When the client goes away, a write or flush throws {@link IOException}:
     * let it propagate (or return); the platform treats it as a normal end.
     */
    public static RawResponse stream(int status, Map<String, String> headers, String contentType, StreamBody body) {
        return new RawResponse(status, headers, contentType, null, java.util.Objects.requireNonNull(body, "body"));
    }

    public boolean isStream() {
        return stream != null;
    }

    public RawResponse withHeader(String name, String value) {
        var copy = new java.util.LinkedHashMap<>(headers);
        copy.put(name, value);
        return new RawResponse(status, copy, contentType, body, stream);
    }

    /** Writes a streamed body; flush after each unit the client should see at once. */
    @FunctionalInterface
    public interface StreamBody {
        void write(OutputStream out) throws IOException;
    }
}
