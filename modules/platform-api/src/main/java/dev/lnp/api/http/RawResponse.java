package dev.lnp.api.http;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * What a raw route answers, written as is.
 *
 * @param contentType the body's media type, or {@code null} when there is no body
 * @param body the bytes to send; {@code null} for none
 */
public record RawResponse(int status, Map<String, String> headers, String contentType, byte[] body) {

    public RawResponse {
        headers = Map.copyOf(headers);
    }

    public static RawResponse json(int status, String json) {
        return new RawResponse(status, Map.of(), "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    public static RawResponse empty(int status) {
        return new RawResponse(status, Map.of(), null, null);
    }

    public RawResponse withHeader(String name, String value) {
        var copy = new java.util.LinkedHashMap<>(headers);
        copy.put(name, value);
        return new RawResponse(status, copy, contentType, body);
    }
}
