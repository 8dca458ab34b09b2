package dev.lnp.oauth;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.RawRequest;
import dev.lnp.api.http.RawResponse;
import dev.lnp.api.internal.platform.PluginCatalog;
import java.util.Collection;
import java.util.TreeSet;

/**
 * The discovery documents a client reads after the 401 of the MCP endpoint: the resource's metadata (RFC 9728),
 * which names this deployment as its authorization server, and the server's metadata (RFC 8414), which names the
 * endpoints, PKCE's S256 as the only method and public clients as the only kind. An OpenID Provider document is not
 * served: the MCP specification asks for one of the two, and this server issues no ID tokens.
 */
final class Discovery {

    private final OAuthSettings settings;
    private final PluginCatalog catalog;

    Discovery(OAuthSettings settings, PluginCatalog catalog) {
        this.settings = settings;
        this.catalog = catalog;
    }

    RawResponse protectedResource(RawRequest request) {
        ObjectNode body = Json.object().put("resource", settings.resource());
        body.putArray("authorization_servers").add(settings.issuer());
        body.set("scopes_supported", strings(catalog.scopes()));
        body.putArray("bearer_methods_supported").add("header");
        body.put("resource_name", "MCP endpoint of this workspace platform");
        return OAuthAnswers.document(body);
    }

    RawResponse authorizationServer(RawRequest request) {
        String issuer = settings.issuer();
        ObjectNode body = Json.object().put("issuer", issuer)
                .put("authorization_endpoint", issuer + OAuthSettings.AUTHORIZE)
                .put("token_endpoint", issuer + OAuthSettings.TOKEN)
                .put("registration_endpoint", issuer + OAuthSettings.REGISTER)
                .put("revocation_endpoint", issuer + OAuthSettings.REVOKE);
        body.set("scopes_supported", strings(catalog.scopes()));
        body.putArray("response_types_supported").add("code");
        body.putArray("response_modes_supported").add("query");
        body.putArray("grant_types_supported").add("authorization_code").add("refresh_token");
        body.putArray("code_challenge_methods_supported").add("S256");
        body.putArray("token_endpoint_auth_methods_supported").add("none");
        body.putArray("revocation_endpoint_auth_methods_supported").add("none");
        body.put("authorization_response_iss_parameter_supported", true);
        body.put("client_id_metadata_document_supported", true);
        return OAuthAnswers.document(body);
    }

    private static ArrayNode strings(Collection<String> values) {
        ArrayNode array = Json.object().arrayNode();
        new TreeSet<>(values).forEach(array::add);
        return array;
    }
}
