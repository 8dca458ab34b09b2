package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import dev.lnp.testkit.WebhookReceiver;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A client known only by its Client ID Metadata Document, over real HTTP end to end: the server metadata says it
 * is supported, the person consents, the code is exchanged and the token calls tools; a document whose client_id is
 * not its URL, or a redirect it does not list, is a readable page. The document server is on the loopback
 * interface, which the operator setting {@code lnp.oauth.client_metadata.allowed_networks} lets in.
 */
@PlatformTest(plugins = {"mcp", "crm"}, config = {"lnp.oauth.client_metadata.allowed_networks=127.0.0.0/8"})
class McpClientMetadataDocumentTest {

    @Test
    void aClientKnownByItsMetadataDocumentIsAuthorizedAndCallsTools(TestPlatform platform) throws Exception {
        JsonNode server = platform.get("/.well-known/oauth-authorization-server", null).json();
        assertTrue(server.path("client_id_metadata_document_supported").asBoolean(), server.toString());

        UUID ws = platform.createWorkspace("oauth-cimd");
        TestPerson owner = platform.person(ws, "owner");
        try (var documents = new WebhookReceiver()) {
            String url = "http://127.0.0.1:" + documents.port() + "/assistant/client.json";
            documents.respond(request -> WebhookReceiver.Reply.status(200)
                    .withHeader("Content-Type", "application/json").withHeader("Cache-Control", "no-store")
                    .withBody("{\"client_id\":\"" + url + "\",\"client_name\":\"Test assistant\","
                            + "\"redirect_uris\":[\"" + OAuthClientFixture.REDIRECT + "\"]}"));
            var client = new OAuthClientFixture(platform, url);
            JsonNode tokens = client.connect(owner, ws, "mcp.use contacts.read", List.of("contacts.read"));
            String access = tokens.path("access_token").asText();
            JsonNode listed = McpFixtures.result(McpFixtures.rpc(platform, access, McpFixtures.LATEST, "tools/list",
                    null));
            assertTrue(listed.path("tools").toString().contains("crm_list_contacts"), listed.toString());
            TestResponse refreshed = client.refresh(tokens.path("refresh_token").asText());
            assertEquals(200, refreshed.status(), refreshed.body());

            // A redirect the document does not list: a page, never a redirect.
            TestPerson.Page foreign = owner.get(client.authorizePath("redirect_uri", "https://attacker.example/cb"));
            assertEquals(400, foreign.status());
            assertTrue(foreign.body().contains("Wrong return address"), foreign.body());

            // A document that names another client: a page that says why.
            documents.respond(request -> WebhookReceiver.Reply.status(200)
                    .withHeader("Content-Type", "application/json").withHeader("Cache-Control", "no-store")
                    .withBody("{\"client_id\":\"https://elsewhere.example/client.json\","
                            + "\"redirect_uris\":[\"" + OAuthClientFixture.REDIRECT + "\"]}"));
            TestPerson.Page mismatched = owner.get(client.authorizePath());
            assertEquals(400, mismatched.status());
            assertTrue(mismatched.body().contains("another client_id"), mismatched.body());
        }
    }
}
