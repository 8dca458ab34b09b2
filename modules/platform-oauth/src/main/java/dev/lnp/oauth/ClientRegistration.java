package dev.lnp.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.RawRequest;
import dev.lnp.api.http.RawResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * Dynamic client registration (RFC 7591), open to anyone as the MCP specification expects: a client registers
 * itself before it sends a person to the consent page, where the person decides. Only public clients
 * ({@code token_endpoint_auth_method} {@code none}) using the authorization code with refresh tokens are
 * registered; redirect URIs must be https or loopback http ({@link RedirectUris}). Errors are RFC 7591 §3.2.2's.
 */
final class ClientRegistration {

    private static final int MAX_REDIRECT_URIS = 10;
    private final Clients clients;

    ClientRegistration(Clients clients) {
        this.clients = clients;
    }

    RawResponse register(RawRequest request) {
        JsonNode body;
        try {
            body = Json.mapper().readTree(request.body());
        } catch (java.io.IOException e) {
            body = null;
        }
        if (body == null || !body.isObject()) {
            return OAuthAnswers.error(400, "invalid_client_metadata", "The body must be a JSON object.");
        }
        JsonNode uris = body.path("redirect_uris");
        if (!uris.isArray() || uris.isEmpty() || uris.size() > MAX_REDIRECT_URIS) {
            return OAuthAnswers.error(400, "invalid_redirect_uri",
                    "redirect_uris must list 1 to " + MAX_REDIRECT_URIS + " redirect URIs.");
        }
        List<String> redirectUris = new ArrayList<>();
        for (JsonNode uri : uris) {
            var problem = uri.isTextual() ? RedirectUris.problem(uri.asText()) : java.util.Optional.of(
                    "must be a string");
            if (problem.isPresent()) {
                return OAuthAnswers.error(400, "invalid_redirect_uri", "Each redirect URI " + problem.get());
            }
            redirectUris.add(uri.asText());
        }
        String method = body.path("token_endpoint_auth_method").asText("none");
        if (!method.equals("none")) {
            return OAuthAnswers.error(400, "invalid_client_metadata", "Only public clients are registered: "
                    + "token_endpoint_auth_method must be none (the client proves itself with PKCE), not " + method
                    + ".");
        }
        for (JsonNode type : body.path("grant_types")) {
            if (!List.of("authorization_code", "refresh_token").contains(type.asText())) {
                return OAuthAnswers.error(400, "invalid_client_metadata",
                        "grant_types may be authorization_code and refresh_token only, not " + type.asText() + ".");
            }
        }
        for (JsonNode type : body.path("response_types")) {
            if (!type.asText().equals("code")) {
                return OAuthAnswers.error(400, "invalid_client_metadata",
                        "response_types may be code only, not " + type.asText() + ".");
            }
        }
        String name = body.path("client_name").asText("").strip();
        if (name.isEmpty()) {
            name = "Unnamed client at " + RedirectUris.host(redirectUris.get(0));
        }
        if (name.length() > 200) {
            return OAuthAnswers.error(400, "invalid_client_metadata", "client_name is longer than 200 characters.");
        }
        Clients.Client client = clients.register(name, redirectUris);
        ObjectNode answer = Json.object().put("client_id", client.clientId())
                .put("client_id_issued_at", java.time.Instant.now().getEpochSecond())
                .put("client_name", client.name()).put("token_endpoint_auth_method", "none");
        var array = answer.putArray("redirect_uris");
        client.redirectUris().forEach(array::add);
        answer.putArray("grant_types").add("authorization_code").add("refresh_token");
        answer.putArray("response_types").add("code");
        return OAuthAnswers.json(201, answer);
    }
}
