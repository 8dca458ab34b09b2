package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@PlatformTest(plugins = "probe")
class ScopesAndTenancyTest {

    @Test
    void aReadOnlyKeyCannotWrite(TestPlatform platform) {
        UUID ws = platform.createWorkspace("ro");
        String readOnly = platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(ws, "ro",
                java.util.List.of(), "read-only", null, null)).key();
        assertEquals(200, platform.get("/api/v1/probe/items", readOnly).status());
        var write = platform.post("/api/v1/probe/items", readOnly, "{\"name\":\"x\"}");
        assertEquals(403, write.status(), write.body());
        assertEquals("missing_scope", write.json().path("code").asText());
    }

    @Test
    void aKeyWithoutTheReadScopeCannotRead(TestPlatform platform) {
        String writeOnly = platform.key(platform.createWorkspace("wo"), "probe.write");
        var read = platform.get("/api/v1/probe/items", writeOnly);
        assertEquals(403, read.status(), read.body());
        assertTrue(read.json().path("detail").asText().contains("probe.read"));
    }

    @Test
    void anotherWorkspacesResourceLooksExactlyLikeAMissingOne(TestPlatform platform) {
        UUID mine = platform.createWorkspace("mine");
        UUID theirs = platform.createWorkspace("theirs");
        String myKey = platform.fullAccessKey(mine);
        String theirKey = platform.fullAccessKey(theirs);
        String theirItem = platform.post("/api/v1/probe/items", theirKey, "{\"name\":\"secret\"}").data().path("id").asText();

        var foreign = platform.get("/api/v1/probe/items/" + theirItem, myKey);
        var missing = platform.get("/api/v1/probe/items/" + UUID.randomUUID(), myKey);
        assertEquals(404, foreign.status());
        assertEquals(404, missing.status());
        assertEquals(withoutRequestId(missing.json()), withoutRequestId(foreign.json()));
        assertEquals(404, platform.patch("/api/v1/probe/items/" + theirItem, myKey, "{\"name\":\"x\"}").status());
    }

    @Test
    void aMalformedPathIdIs400NamingTheParameterBeforeTheBodyIsRead(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("ids"));
        for (String id : List.of("not-a-uuid", "123", "0d6f3b8e1c2a4f5b9e7d3a1b2c4d5e6f", "0d6f3b8e-1c2a-4f5b-9e7d-3a1b2c4d5e6")) {
            var get = platform.get("/api/v1/probe/items/" + id, key);
            assertEquals(400, get.status(), id + ": " + get.body());
            assertEquals("invalid_path_parameter", get.json().path("code").asText());
            assertEquals("{id}", get.json().path("errors").get(0).path("pointer").asText());
            assertEquals("format", get.json().path("errors").get(0).path("rule").asText());
            assertTrue(get.json().path("detail").asText().contains("id"), get.body());
            var patch = platform.patch("/api/v1/probe/items/" + id, key, "{\"unknown\": true}");
            assertEquals(400, patch.status(), "the id is checked before the body: " + patch.body());
        }
        assertEquals(401, platform.get("/api/v1/probe/items/not-a-uuid", null).status(), "authentication comes first");
    }

    @Test
    void rowLevelSecurityConfinesAQueryThatForgetsTheWorkspaceFilter(TestPlatform platform) {
        UUID a = platform.createWorkspace("rls-a");
        UUID b = platform.createWorkspace("rls-b");
        String keyA = platform.fullAccessKey(a);
        String keyB = platform.fullAccessKey(b);
        for (int i = 0; i < 3; i++) {
            platform.post("/api/v1/probe/items", keyB, "{\"name\":\"b" + i + "\"}");
        }
        platform.post("/api/v1/probe/items", keyA, "{\"name\":\"a\"}");
        assertEquals(1, platform.get("/api/v1/probe/unfiltered-count", keyA).data().path("count").asLong());
        assertEquals(3, platform.get("/api/v1/probe/unfiltered-count", keyB).data().path("count").asLong());
    }

    @Test
    void theRequestRoleCannotReadCoreTables(TestPlatform platform) {
        UUID ws = platform.createWorkspace("core");
        var transactions = new dev.lnp.core.db.WorkspaceTransactions(platform.jdbi(), platform.platform().registry());
        var failure = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () ->
                transactions.inWorkspace(ws, tx -> tx.handle().createQuery("SELECT count(*) FROM lnp_core.api_keys")
                        .mapTo(Long.class).one()));
        assertTrue(failure.getMessage().contains("permission denied"), failure.getMessage());
    }

    private static ObjectNode withoutRequestId(com.fasterxml.jackson.databind.JsonNode problem) {
        ObjectNode copy = problem.deepCopy();
        copy.remove("request_id");
        return copy;
    }
}
