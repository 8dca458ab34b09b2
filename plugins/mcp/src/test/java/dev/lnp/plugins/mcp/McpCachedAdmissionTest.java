package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.RateWindows;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/mcp/tools/call} answers from tool calls only, so its key may be admitted from the node's cache:
 * the tool's transaction re-checks it. A key revoked elsewhere (here: plain SQL) fails on its next call, whatever
 * that call is, and its refused calls leave no tool-call audit row.
 */
@PlatformTest(plugins = {"mcp", "crm"})
class McpCachedAdmissionTest {

    private static final String CALL = "/api/mcp/tools/call";
    private static final String LIST = "{\"name\":\"crm_list_contacts\",\"arguments\":{\"limit\":5}}";

    /** Each test counts admissions served from the cache, which needs its reads' rate positions in one lease. */
    @BeforeEach
    void notAcrossAMinuteTurn() {
        RateWindows.stayInOneMinute(10);
    }

    @Test
    void toolCallsAfterTheFirstAreAdmittedFromTheCache(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("cached calls"));
        long cachedBefore = platform.admissions("cache");
        for (int i = 0; i < 5; i++) {
            assertEquals(200, platform.post(CALL, key, LIST).status());
        }
        assertEquals(3, platform.admissions("cache") - cachedBefore,
                "the first two reserve rate positions; the rest come from the cache");
    }

    @Test
    void aKeyRevokedElsewhereIs401OnItsNextCallAndItsRefusedCallsAreNotAudited(TestPlatform platform) {
        UUID ws = platform.createWorkspace("revoked calls");
        String auditor = platform.fullAccessKey(ws);
        // One key per refusal: a key's first 401 also drops its cached admission.
        String[] calls = {LIST, "{\"name\":\"crm_nope\",\"arguments\":{}}",
                "{\"name\":\"crm_create_contact\",\"arguments\":{\"email\":\"x\"}}"};
        String[] keys = new String[calls.length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = platform.fullAccessKey(ws);
            for (int i = 0; i < 3; i++) {
                assertEquals(200, platform.post(CALL, keys[k], LIST).status());
            }
            String revoked = keys[k];
            platform.jdbi().useHandle(h -> h.execute(
                    "UPDATE lnp_core.connections SET revoked_at = now() WHERE id = ?",
                    McpFixtures.connectionOf(platform, revoked)));
        }
        for (int k = 0; k < keys.length; k++) {
            assertRevoked(platform.post(CALL, keys[k], calls[k]));
        }

        assertEquals(200, platform.post(CALL, auditor, LIST).status());
        int expected = 3 * keys.length + 1;
        JsonNode audit = audit(platform, auditor, expected);
        assertEquals(expected, audit.path("pagination").path("total").asInt(),
                "the calls before the revocations and the auditor's: " + audit);
    }

    @Test
    void aScopeTakenAwayDeniesTheNextCall(TestPlatform platform) {
        UUID ws = platform.createWorkspace("scope calls");
        String key = platform.key(ws, "mcp.use", "contacts.read");
        for (int i = 0; i < 3; i++) {
            assertEquals(200, platform.post(CALL, key, LIST).status());
        }
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET scopes = '{mcp.use}' WHERE id = ?",
                McpFixtures.connectionOf(platform, key)));
        TestResponse denied = platform.post(CALL, key, LIST);
        assertEquals(403, denied.status(), denied.body());
        assertEquals("tool_denied", denied.json().path("code").asText(), denied.body());
    }

    private static void assertRevoked(TestResponse response) {
        assertEquals(401, response.status(), response.body());
        assertEquals("revoked_key", response.json().path("code").asText(), response.body());
    }

    /** The audit is written off the request path: wait until it shows {@code count} calls. */
    private static JsonNode audit(TestPlatform platform, String key, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            TestResponse response = platform.get("/api/mcp/audit", key);
            assertEquals(200, response.status(), response.body());
            if (response.json().path("pagination").path("total").asInt() >= count
                    || System.nanoTime() > deadline) {
                return response.json();
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
