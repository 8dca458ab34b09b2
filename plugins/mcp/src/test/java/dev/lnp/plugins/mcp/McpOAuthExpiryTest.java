package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Access tokens end with their lifetime ({@code lnp.oauth.access_token_ttl}); the refresh token goes on. */
@PlatformTest(plugins = {"mcp", "crm"}, config = "lnp.oauth.access_token_ttl=PT1S")
class McpOAuthExpiryTest {

    @Test
    void anExpiredAccessTokenIs401WithTheMetadataPointerAndARefreshGivesANewOne(TestPlatform platform)
            throws InterruptedException {
        UUID ws = platform.createWorkspace("oauth-expiry");
        var client = new OAuthClientFixture(platform);
        JsonNode tokens = client.connect(platform.person(ws, "owner"), ws, "mcp.use contacts.read",
                List.of("contacts.read"));
        assertEquals(1, tokens.path("expires_in").asInt());
        Thread.sleep(1500);
        TestResponse expired = McpFixtures.rpc(platform, tokens.path("access_token").asText(), McpFixtures.LATEST,
                "tools/list", null);
        assertEquals(401, expired.status());
        assertTrue(expired.header("WWW-Authenticate").orElseThrow().contains("resource_metadata="));
        String fresh = client.refresh(tokens.path("refresh_token").asText()).json().path("access_token").asText();
        assertEquals(200, McpFixtures.rpc(platform, fresh, McpFixtures.LATEST, "tools/list", null).status());
    }
}
