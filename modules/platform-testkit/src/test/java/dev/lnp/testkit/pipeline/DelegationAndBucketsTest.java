package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.auth.Connections;
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
        UUID connection = UUID.randomUUID();
        UUID key = UUID.randomUUID();
        var limiter = new RateLimiter(platform.jdbi(), Clock.fixed(Instant.parse("2026-01-01T10:00:10Z"), ZoneOffset.UTC));
        limiter.hit(connection, key, "rest", 2);
        limiter.hit(connection, key, "rest", 2);
        var tooMany = assertThrows(ApiProblem.class, () -> limiter.hit(connection, key, "rest", 2));
        assertEquals(429, tooMany.status());
        assertEquals("50", tooMany.headers().get("Retry-After"));
        assertEquals(1, limiter.hit(connection, key, "mcp", 2).remaining(), "the MCP budget is untouched by REST calls");
        var nextMinute = new RateLimiter(platform.jdbi(), Clock.fixed(Instant.parse("2026-01-01T10:01:00Z"), ZoneOffset.UTC));
        assertEquals(1, nextMinute.hit(connection, key, "rest", 2).remaining(), "a new window starts each minute");
    }
}
