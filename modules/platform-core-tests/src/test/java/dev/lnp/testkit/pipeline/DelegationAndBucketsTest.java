package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.auth.ApiKeys;
import dev.lnp.core.auth.Connections;
import dev.lnp.core.auth.KeyRepository;
import dev.lnp.core.limits.RateLimiter;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@PlatformTest(plugins = "probe")
class DelegationAndBucketsTest {

    @Test
    void withoutDelegationTheServiceIdentityActs(TestPlatform platform) {
        UUID ws = platform.createWorkspace("svc");
        var issued = platform.connections().create(new Connections.NewConnection(ws, "svc", List.of(), "full-access",
                null, null));
        var me = platform.get("/api/v1/probe/whoami", issued.key()).data();
        assertEquals(issued.identityId().toString(), me.path("actor_id").asText());
        assertEquals("service", me.path("role").asText());
    }

    @Test
    void aDelegatingConnectionActsAsTheUserWithinTheUsersRole(TestPlatform platform) {
        UUID ws = platform.createWorkspace("delegate");
        UUID member = platform.workspaces().addUser(ws, "member@delegate.test", "member");
        var issued = platform.connections().create(new Connections.NewConnection(ws, "assistant", List.of(),
                "full-access", null, member));
        var me = platform.get("/api/v1/probe/whoami", issued.key()).data();
        assertEquals(member.toString(), me.path("actor_id").asText());
        assertEquals(issued.identityId().toString(), me.path("identity_id").asText());
        assertEquals("member", me.path("role").asText());
        assertEquals(201, platform.post("/api/v1/probe/items", issued.key(), "{\"name\":\"by member\"}").status());
    }

    @Test
    void restAndMcpBudgetsAreSeparate(TestPlatform platform) {
        UUID ws = platform.createWorkspace("buckets");
        var issued = platform.connections().create(new Connections.NewConnection(ws, "buckets", List.of(),
                "full-access", null, null));
        var keys = new KeyRepository(platform.jdbi());
        byte[] hash = ApiKeys.hash(issued.key());
        Instant at = Instant.parse("2026-01-01T10:00:10Z");
        var limiter = new RateLimiter(Clock.fixed(at, ZoneOffset.UTC));
        RateLimiter.Window rest = limiter.window("rest");
        assertEquals(1, keys.admit(hash, at, false, rest).orElseThrow().hits());
        assertEquals(2, keys.admit(hash, at, false, rest).orElseThrow().hits());
        int third = keys.admit(hash, at, false, rest).orElseThrow().hits();
        assertEquals(3, third);
        assertEquals(0, limiter.verdict(rest, 2, 2).remaining());
        var tooMany = assertThrows(ApiProblem.class, () -> limiter.verdict(rest, third, 2));
        assertEquals(429, tooMany.status());
        assertEquals("50", tooMany.headers().get("Retry-After"));
        assertEquals(1, keys.admit(hash, at, false, limiter.window("mcp")).orElseThrow().hits(),
                "the MCP budget is untouched by REST calls");
        var nextMinute = new RateLimiter(Clock.fixed(Instant.parse("2026-01-01T10:01:00Z"), ZoneOffset.UTC));
        assertEquals(1, keys.admit(hash, at, false, nextMinute.window("rest")).orElseThrow().hits(),
                "a new window starts each minute");
        assertEquals(null, keys.admit(hash, at, false, null).orElseThrow().hits(), "a lookup alone counts nothing");
    }

    @Test
    void refusedKeysDoNotUseTheConnectionsBudget(TestPlatform platform) {
        UUID ws = platform.createWorkspace("refused");
        var issued = platform.connections().create(new Connections.NewConnection(ws, "refused", List.of(),
                "full-access", null, null));
        var keys = new KeyRepository(platform.jdbi());
        byte[] hash = ApiKeys.hash(issued.key());
        var window = new RateLimiter(Clock.systemUTC()).window("rest");
        assertEquals(1, keys.admit(hash, Instant.now(), false, window).orElseThrow().hits());
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.api_keys SET revoked_at = now() WHERE connection_id = ?",
                issued.connectionId()));
        assertEquals(null, keys.admit(hash, Instant.now(), false, window).orElseThrow().hits(),
                "a revoked key is found (for its 401) but not counted");
        assertEquals(401, platform.get("/api/v1/probe/items", issued.key()).status());
    }
}
