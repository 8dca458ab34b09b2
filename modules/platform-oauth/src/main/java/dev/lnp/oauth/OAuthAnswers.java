package dev.lnp.oauth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.RawResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The JSON answers of the OAuth endpoints: documents, token responses and the RFC 6749 §5.2 error object
 * ({@code error}, {@code error_description}). Token responses and errors are never cached (§5.1).
 */
final class OAuthAnswers {

    private static final Map<String, String> NO_STORE = Map.of("Cache-Control", "no-store", "Pragma", "no-cache");

    private OAuthAnswers() {
    }

    static RawResponse json(int status, ObjectNode body) {
        return new RawResponse(status, NO_STORE, "application/json",
                body.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** A discovery document: public, the same for everyone, readable from a browser-based client. */
    static RawResponse document(ObjectNode body) {
        return new RawResponse(200, Map.of("Cache-Control", "public, max-age=300",
                "Access-Control-Allow-Origin", "*"), "application/json",
                body.toString().getBytes(StandardCharsets.UTF_8));
    }

    static RawResponse error(int status, String error, String description) {
        RawResponse answer = json(status, Json.object().put("error", error).put("error_description", description));
        // RFC 6749 §5.2: a client that failed to authenticate is told how to.
        return status == 401 ? answer.withHeader("WWW-Authenticate", "Bearer error=\"" + error + "\"") : answer;
    }
}
