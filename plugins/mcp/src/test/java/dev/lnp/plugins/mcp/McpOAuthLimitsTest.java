package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.RateWindows;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A grant's tokens share the MCP rate limit of the grant's connection, as a key's requests do: a refreshed token
 * does not start a fresh budget.
 */
@PlatformTest(plugins = {"mcp", "crm"}, config = "lnp.limits.mcp_per_minute=3")
class McpOAuthLimitsTest {

    @Test
    void theGrantsTokensShareOneRateLimit(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-limits");
        var client = new OAuthClientFixture(platform);
        JsonNode tokens = client.connect(platform.person(ws, "owner"), ws, "mcp.use contacts.read",
                List.of("contacts.read"));
        String first = tokens.path("access_token").asText();
        String second = client.refresh(tokens.path("refresh_token").asText()).json().path("access_token").asText();
        RateWindows.stayInOneMinute(10);
        int answered = 0;
        int limited = 0;
        for (String token : List.of(first, first, second, second)) {
            int status = McpFixtures.rpc(platform, token, McpFixtures.LATEST, "tools/list", null).status();
            answered += status == 200 ? 1 : 0;
            limited += status == 429 ? 1 : 0;
        }
        assertEquals(1, limited, "three requests a minute, whichever token of the grant sends them");
        assertEquals(3, answered);
    }
}
