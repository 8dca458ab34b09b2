package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.core.auth.Connections;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.RateWindows;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

@PlatformTest(plugins = "probe")
class LimitsTest {

    private static Connections.Issued connection(TestPlatform platform, UUID ws) {
        return platform.connections().create(new Connections.NewConnection(ws, "limited", List.of(), "full-access",
                null, null));
    }

    @Test
    void theRateLimitHoldsAcrossTwoNodesSharingTheDatabase(TestPlatform platform) {
        UUID ws = platform.createWorkspace("rate");
        var issued = connection(platform, ws);
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET rest_per_minute = 4 WHERE id = ?",
                issued.connectionId()));
        try (TestPlatform second = TestPlatform.startOn(platform, List.of("probe"), Map.of())) {
            RateWindows.stayInOneMinute(10);
            assertEquals(200, platform.get("/api/v1/probe/items", issued.key()).status());
            assertEquals(200, second.get("/api/v1/probe/items", issued.key()).status());
            assertEquals(200, platform.get("/api/v1/probe/items", issued.key()).status());
            TestResponse fourth = second.get("/api/v1/probe/items", issued.key());
            assertEquals(200, fourth.status());
            assertEquals("\"rest\";q=4;w=60", fourth.header("RateLimit-Policy").orElseThrow());
            assertTrue(fourth.header("RateLimit").orElseThrow().startsWith("\"rest\";r=0;t="));

            TestResponse limited = platform.get("/api/v1/probe/items", issued.key());
            assertEquals(429, limited.status(), limited.body());
            assertEquals("rate_limited", limited.json().path("code").asText());
            long retryAfter = Long.parseLong(limited.header("Retry-After").orElseThrow());
            int secondOfMinute = ZonedDateTime.now(ZoneOffset.UTC).getSecond();
            assertTrue(retryAfter >= 1 && retryAfter <= 60 && Math.abs(retryAfter - (60 - secondOfMinute)) <= 2,
                    "Retry-After " + retryAfter + " at second " + secondOfMinute);
            assertEquals(429, second.get("/api/v1/probe/items", issued.key()).status());
        }
        // Another key of the same workspace has its own budget.
        assertEquals(200, platform.get("/api/v1/probe/items", platform.fullAccessKey(ws)).status());
    }

    @Test
    void theMonthlyQuotaIs429UntilTheMonthEndsAndFailedWritesDoNotCount(TestPlatform platform) {
        UUID ws = platform.createWorkspace("quota");
        platform.setQuota(ws, "probe_writes", 2);
        String key = platform.fullAccessKey(ws);
        assertEquals(422, platform.post("/api/v1/probe/items", key, "{\"name\":5}").status());
        assertEquals(201, platform.post("/api/v1/probe/items", key, "{\"name\":\"one\"}").status());
        assertEquals(201, platform.post("/api/v1/probe/items", key, "{\"name\":\"two\"}").status());
        TestResponse over = platform.post("/api/v1/probe/items", key, "{\"name\":\"three\"}");
        assertEquals(429, over.status(), over.body());
        assertEquals("quota_exceeded", over.json().path("code").asText());
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        long expected = now.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay(ZoneOffset.UTC).toEpochSecond()
                - now.toEpochSecond();
        assertTrue(Math.abs(Long.parseLong(over.header("Retry-After").orElseThrow()) - expected) <= 5);
        assertEquals(200, platform.get("/api/v1/probe/items", key).status(), "reads are not counted");
        long stored = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM probe.items WHERE workspace_id = :ws").bind("ws", ws).mapTo(Long.class).one());
        assertEquals(2, stored);
    }

    @Test
    void theDeploymentSetsAPluginsQuotaAndAWorkspaceLimitOverridesIt(TestPlatform platform) {
        try (TestPlatform limited = TestPlatform.startOn(platform, List.of("probe"),
                Map.of("lnp.quotas.probe_writes.monthly", "1"))) {
            UUID ws = limited.createWorkspace("deployment-quota");
            String key = limited.fullAccessKey(ws);
            assertEquals(201, limited.post("/api/v1/probe/items", key, "{\"name\":\"one\"}").status());
            TestResponse over = limited.post("/api/v1/probe/items", key, "{\"name\":\"two\"}");
            assertEquals(429, over.status(), over.body());
            assertTrue(over.json().path("detail").asText().contains("monthly PROBE_WRITES quota of 1 writes"),
                    over.body());

            limited.setQuota(ws, "probe_writes", 3);
            assertEquals(201, limited.post("/api/v1/probe/items", key, "{\"name\":\"two\"}").status(),
                    "the workspace's own limit wins over the deployment's");
        }
    }

    @Test
    void idempotentReplayReturnsTheStoredResponseWithoutRepeatingTheEffect(TestPlatform platform) {
        UUID ws = platform.createWorkspace("idem");
        String key = platform.fullAccessKey(ws);
        Map<String, String> idem = Map.of("Idempotency-Key", "order-42");
        TestResponse first = platform.send("POST", "/api/v1/probe/items", key, "{\"name\":\"once\"}", idem);
        TestResponse again = platform.send("POST", "/api/v1/probe/items", key, "{ \"name\" : \"once\" }", idem);
        assertEquals(201, first.status());
        assertEquals(201, again.status());
        assertEquals(first.body(), again.body());
        assertEquals("true", again.header("Idempotent-Replayed").orElseThrow());
        assertEquals(1, count(platform, ws));

        TestResponse conflict = platform.send("POST", "/api/v1/probe/items", key, "{\"name\":\"other\"}", idem);
        assertEquals(422, conflict.status());
        assertEquals("idempotency_key_reused", conflict.json().path("code").asText());
        assertEquals(1, count(platform, ws));

        TestResponse invalidFirst = platform.send("POST", "/api/v1/probe/items", key, "{\"name\":5}",
                Map.of("Idempotency-Key", "bad-then-good"));
        assertEquals(422, invalidFirst.status());
        TestResponse fixed = platform.send("POST", "/api/v1/probe/items", key, "{\"name\":\"fixed\"}",
                Map.of("Idempotency-Key", "bad-then-good"));
        assertEquals(201, fixed.status(), "a rejected request does not consume its key");
    }

    @Test
    void concurrentDuplicatesRunOnce(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("idem-concurrent");
        String key = platform.fullAccessKey(ws);
        List<Future<TestResponse>> responses = new ArrayList<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 12; i++) {
                responses.add(pool.submit(() -> platform.send("POST", "/api/v1/probe/items", key,
                        "{\"name\":\"race\"}", Map.of("Idempotency-Key", "race-1"))));
            }
        }
        String body = responses.get(0).get().body();
        for (Future<TestResponse> r : responses) {
            assertEquals(201, r.get().status(), r.get().body());
            assertEquals(body, r.get().body());
        }
        assertEquals(1, count(platform, ws));
    }

    @Test
    void aRequestRecordsTheKeysLastUseAtMostOnceAMinute(TestPlatform platform) {
        UUID ws = platform.createWorkspace("last use");
        var issued = connection(platform, ws);
        assertEquals(null, lastUsed(platform, issued.connectionId()), "a new key has no last use");
        assertEquals(200, platform.get("/api/v1/probe/items", issued.key()).status());
        var first = lastUsed(platform, issued.connectionId());
        assertTrue(first != null, "the request recorded the key's use");
        assertEquals(200, platform.get("/api/v1/probe/items", issued.key()).status());
        assertEquals(first, lastUsed(platform, issued.connectionId()), "not rewritten within the minute");
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.api_keys SET last_used_at = now() - interval '2 minutes' WHERE connection_id = ?",
                issued.connectionId()));
        var old = lastUsed(platform, issued.connectionId());
        // A write: its admission is always the lookup statement, which records the use (a read may be admitted
        // from the node's cache for up to 15 s, and records nothing then).
        assertEquals(201, platform.post("/api/v1/probe/items", issued.key(), "{\"name\":\"used\"}").status());
        assertTrue(lastUsed(platform, issued.connectionId()).isAfter(old), "recorded again after a minute");
    }

    private static java.time.OffsetDateTime lastUsed(TestPlatform platform, UUID connection) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT last_used_at FROM lnp_core.api_keys WHERE connection_id = :c")
                .bind("c", connection).mapTo(java.time.OffsetDateTime.class).one());
    }

    @Test
    void everyAuthenticatedRequestIsAuditedWithoutKeyMaterial(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("audit");
        var issued = connection(platform, ws);
        platform.get("/api/v1/probe/items", issued.key());
        platform.post("/api/v1/probe/items", issued.key(), "{\"name\":5}");
        List<Map<String, Object>> rows = List.of();
        for (int i = 0; i < 50 && rows.size() < 2; i++) {
            sleep(100);
            rows = platform.jdbi().withHandle(h -> h.createQuery(
                    "SELECT * FROM lnp_core.audit_log WHERE connection_id = :c ORDER BY id").bind("c", issued.connectionId())
                    .mapToMap().list());
        }
        assertEquals(2, rows.size());
        assertEquals("/api/v1/probe/items", rows.get(0).get("route"));
        assertEquals(200, rows.get(0).get("status"));
        assertEquals(422, rows.get(1).get("status"));
        assertTrue(rows.toString().indexOf("lnp_") < 0 || !rows.toString().contains(issued.key()));
    }

    private static long count(TestPlatform platform, UUID ws) {
        return platform.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM probe.items WHERE workspace_id = :ws")
                .bind("ws", ws).mapTo(Long.class).one());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
