package dev.lnp.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import java.net.http.HttpHeaders;
import java.util.Optional;

/** An HTTP response as a test reads it. */
public record TestResponse(int status, HttpHeaders headers, String body) {

    public JsonNode json() {
        return body.isEmpty() ? Json.object() : Json.parse(body);
    }

    public Optional<String> header(String name) {
        return headers.firstValue(name);
    }

    /** The {@code data} of an envelope. */
    public JsonNode data() {
        return json().path("data");
    }

    @Override
    public String toString() {
        return status + " " + body;
    }
}
