package dev.lnp.plugins.trials;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.TestPlatform;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two platform nodes on one database: the tool-call budget holds across them (calls racing on both nodes never
 * overdraw it), and a revocation on one node stops the key on the other at once.
 */
class AgentTrialTwoNodesTest {

    private static final List<String> PLUGINS = List.of("trials", "mcp", "crm", "projects", "issues");
    private static Mailbox mail;
    private static TestPlatform first;
    private static TestPlatform second;

    @BeforeAll
    static void start() {
        mail = new Mailbox();
        Map<String, String> config = new HashMap<>(mail.platformConfig());
        config.put("lnp.limits.mcp_per_minute", "1000");
        first = TestPlatform.start("trials_two_nodes", PLUGINS, null, config);
        second = TestPlatform.startOn(first, PLUGINS, config);
    }

    @AfterAll
    static void stop() {
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
        if (mail != null) {
            mail.close();
        }
    }

    @Test
    void theBudgetHoldsAcrossNodesAndRevocationOnOneStopsTheKeyOnTheOther() throws Exception {
        String owner = "nodes-" + UUID.randomUUID().toString().substring(0, 6) + "@example.org";
        JsonNode accepted = Agent.submit(first, owner, "Two nodes");
        String link = mail.awaitApprovalLink(owner, 1);
        Owner person = new Owner(first.port(), mail, owner);
        assertEquals(200, person.decide(link, "approve").status());
        // The agent polls the other node: the state is in the database, not in a node.
        String key = Agent.status(second, accepted.path("request_token").asText()).json().path("api_key").asText();
        UUID connection = first.principal(key).connectionId();
        first.jdbi().useHandle(h -> h.createUpdate(
                "UPDATE lnp_core.connections SET tool_calls_used = 240 WHERE id = :id").bind("id", connection).execute());

        var pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                TestPlatform node = i % 2 == 0 ? first : second;
                calls.add(pool.submit(() -> Agent.mcpCall(node, key, "crm_list_deals", "{\"limit\":1}").status()));
            }
            int ok = 0;
            for (var call : calls) {
                ok += call.get() == 200 ? 1 : 0;
            }
            assertEquals(10, ok, "exactly the 10 calls left succeed, whichever node serves them");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, second.get("/api/mcp/session", key).json().path("toolCalls").path("remaining").asInt());

        // Revoked on the first node's page: the very next request on the second node is refused.
        assertEquals(200, person.decide(link, "revoke").status());
        assertEquals(401, second.get("/api/mcp/session", key).status());
        assertEquals("revoked", Agent.status(second, accepted.path("request_token").asText()).json().path("state")
                .asText());
    }
}
