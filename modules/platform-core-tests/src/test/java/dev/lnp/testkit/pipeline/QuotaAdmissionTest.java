package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.core.auth.ApiKeys;
import dev.lnp.core.auth.Connections;
import dev.lnp.core.auth.KeyRepository;
import dev.lnp.core.limits.QuotaCharge;
import dev.lnp.core.limits.RateLimiter;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A route's quota unit is taken by its admission statement (one round trip less per write): the statement's own
 * rules, and the answers a write gets, which must be those of a separate quota step. Every refusal before the
 * quota step leaves the unit given back; the 429 still comes at the quota step's position.
 */
@PlatformTest(plugins = "probe")
class QuotaAdmissionTest {

    private static final String ITEMS = "/api/v1/probe/items";
    private static final String VALID = "{\"name\":\"one\"}";

    @Test
    void theAdmissionStatementTakesAUnitForALiveKeyWithinTheLimit(TestPlatform platform) {
        UUID ws = platform.createWorkspace("admitted unit");
        var issued = connection(platform, ws);
        var keys = new KeyRepository(platform.jdbi());
        byte[] hash = ApiKeys.hash(issued.key());
        Instant now = Instant.now();
        var window = new RateLimiter(Clock.systemUTC()).window("rest");
        LocalDate month = month(now);
        QuotaCharge deploymentTwo = new QuotaCharge("probe_writes", month, 2);

        assertTrue(keys.admit(hash, now, false, window, 1, deploymentTwo).orElseThrow().quotaTaken());
        assertTrue(keys.admit(hash, now, false, window, 1, deploymentTwo).orElseThrow().quotaTaken());
        assertFalse(keys.admit(hash, now, false, window, 1, deploymentTwo).orElseThrow().quotaTaken(),
                "no unit past the deployment's limit");
        assertEquals(2, used(platform, ws, month));

        platform.setQuota(ws, "probe_writes", 3);
        assertTrue(keys.admit(hash, now, false, window, 1, deploymentTwo).orElseThrow().quotaTaken(),
                "the workspace's own limit wins over the deployment's");
        assertFalse(keys.admit(hash, now, false, window, 1, deploymentTwo).orElseThrow().quotaTaken());
        assertEquals(3, used(platform, ws, month));

        assertFalse(keys.admit(hash, now, false, window, 0, null).orElseThrow().quotaTaken(), "no charge, no unit");
        assertFalse(keys.admit(hash, now, false, null, 0, deploymentTwo).orElseThrow().quotaTaken(),
                "a lookup alone takes nothing");
        assertEquals(3, used(platform, ws, month));
    }

    @Test
    void aLimitOfZeroTakesNoUnitAndWritesNoRow(TestPlatform platform) {
        UUID ws = platform.createWorkspace("zero quota");
        var issued = connection(platform, ws);
        platform.setQuota(ws, "probe_writes", 0);
        Instant now = Instant.now();
        var admission = new KeyRepository(platform.jdbi()).admit(ApiKeys.hash(issued.key()), now, false,
                new RateLimiter(Clock.systemUTC()).window("rest"), 1, new QuotaCharge("probe_writes", month(now), 5));
        assertFalse(admission.orElseThrow().quotaTaken());
        assertEquals(0, rows(platform, ws));
    }

    @Test
    void aRevokedOrExpiredKeyTakesNoUnit(TestPlatform platform) {
        UUID ws = platform.createWorkspace("revoked unit");
        var revoked = connection(platform, ws);
        platform.connections().revoke(revoked.connectionId());
        assertEquals(401, platform.post(ITEMS, revoked.key(), VALID).status());
        var expired = connection(platform, ws);
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.api_keys SET valid_until = now() - interval '1 second' WHERE connection_id = ?",
                expired.connectionId()));
        assertEquals(401, platform.post(ITEMS, expired.key(), VALID).status());
        Instant now = Instant.now();
        var admission = new KeyRepository(platform.jdbi()).admit(ApiKeys.hash(revoked.key()), now, false,
                new RateLimiter(Clock.systemUTC()).window("rest"), 1, new QuotaCharge("probe_writes", month(now), 5));
        assertFalse(admission.orElseThrow().quotaTaken(), "found for its 401, but charged nothing");
        assertEquals(0, rows(platform, ws));
    }

    @Test
    void aWriteRefusedAfterItsAdmissionGivesItsUnitBack(TestPlatform platform) {
        UUID ws = platform.createWorkspace("given back");
        String full = platform.fullAccessKey(ws);
        assertEquals(403, platform.post(ITEMS, platform.key(ws, "probe.read"), VALID).status(), "scope");
        assertEquals(422, platform.post(ITEMS, full, "{\"name\":5}").status(), "body");
        assertEquals(400, platform.post(ITEMS + "?unknown=1", full, VALID).status(), "query");
        assertEquals(400, platform.send("POST", ITEMS, full, VALID, Map.of("Idempotency-Key", "x".repeat(256)))
                .status(), "idempotency key");
        var mcpOnly = connection(platform, ws);
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET mcp_only = true WHERE id = ?",
                mcpOnly.connectionId()));
        assertEquals(403, platform.post(ITEMS, mcpOnly.key(), VALID).status(), "MCP-only key");
        var limited = connection(platform, ws);
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET rest_per_minute = 1 WHERE id = ?",
                limited.connectionId()));
        // The read and the write in one minute window: if the minute is about to turn, wait for the next one.
        int second = ZonedDateTime.now(ZoneOffset.UTC).getSecond();
        if (second > 55) {
            sleep((61 - second) * 1000L);
        }
        assertEquals(200, platform.get(ITEMS, limited.key()).status(), "the minute's one request, not counted");
        TestResponse rateLimited = platform.post(ITEMS, limited.key(), VALID);
        assertEquals("rate_limited", rateLimited.json().path("code").asText(), rateLimited.body());
        assertEquals(0, used(platform, ws, month(Instant.now())), "every refused write gave its unit back");

        assertEquals(201, platform.post(ITEMS, full, VALID).status());
        assertEquals(1, used(platform, ws, month(Instant.now())));
    }

    @Test
    void aReplayOrAFailedWriteGivesTheAdmittedUnitBack(TestPlatform platform) {
        UUID ws = platform.createWorkspace("replayed unit");
        String key = platform.fullAccessKey(ws);
        Map<String, String> idem = Map.of("Idempotency-Key", "once");
        assertEquals(201, platform.send("POST", ITEMS, key, VALID, idem).status());
        TestResponse replay = platform.send("POST", ITEMS, key, VALID, idem);
        assertEquals("true", replay.header("Idempotent-Replayed").orElseThrow());
        assertEquals(422, platform.send("POST", ITEMS, key, "{\"name\":\"other\"}", idem).status(),
                "the key reused for another body fails inside the transaction");
        assertEquals(1, used(platform, ws, month(Instant.now())));
    }

    @Test
    void anExhaustedQuotaIs429AtTheQuotaStepsPositionAfterTheCallsOwnErrors(TestPlatform platform) {
        UUID ws = platform.createWorkspace("exhausted");
        platform.setQuota(ws, "probe_writes", 1);
        String full = platform.fullAccessKey(ws);
        assertEquals(201, platform.post(ITEMS, full, VALID).status());

        assertEquals("missing_scope", code(platform.post(ITEMS, platform.key(ws, "probe.read"), VALID)));
        assertEquals(422, platform.post(ITEMS, full, "{\"name\":5}").status());
        assertEquals("invalid_idempotency_key",
                code(platform.send("POST", ITEMS, full, VALID, Map.of("Idempotency-Key", "x".repeat(256)))));
        TestResponse over = platform.post(ITEMS, full, VALID);
        assertEquals(429, over.status(), over.body());
        assertEquals("quota_exceeded", code(over));
        assertTrue(Long.parseLong(over.header("Retry-After").orElseThrow()) >= 1);
        assertTrue(over.header("RateLimit").isPresent(), "the rate-limit headers of an admitted call");
        assertEquals(1, used(platform, ws, month(Instant.now())));

        platform.setQuota(ws, "probe_writes", 2);
        assertEquals(201, platform.post(ITEMS, full, VALID).status(), "a raised limit applies at once");
        assertEquals(2, used(platform, ws, month(Instant.now())));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Connections.Issued connection(TestPlatform platform, UUID ws) {
        return platform.connections().create(new Connections.NewConnection(ws, "quota", List.of(), "full-access",
                null, null));
    }

    private static LocalDate month(Instant now) {
        return LocalDate.ofInstant(now, ZoneOffset.UTC).withDayOfMonth(1);
    }

    private static String code(TestResponse response) {
        return response.json().path("code").asText();
    }

    private static long used(TestPlatform platform, UUID ws, LocalDate month) {
        return platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT COALESCE(sum(used), 0) FROM lnp_core.quota_usage
                         WHERE workspace_id = :ws AND counter = 'probe_writes' AND month = :month
                        """).bind("ws", ws).bind("month", month).mapTo(Long.class).one());
    }

    private static long rows(TestPlatform platform, UUID ws) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT count(*) FROM lnp_core.quota_usage WHERE workspace_id = :ws")
                .bind("ws", ws).mapTo(Long.class).one());
    }
}
