package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A run is never lost: node B takes a message and its responder hangs (the model server holds the answer); B stops
 * mid-run; node A, on the same database, finds the run's lease expired and answers it.
 */
class RunTakeoverTest {

    @Test
    void aRunLeftByAStoppedNodeIsFinishedByAnother() throws Exception {
        Map<String, String> config = Map.of("lnp.chatbot.lease", "PT2S", "lnp.chatbot.sweep_interval", "PT0.5S",
                "lnp.outbound.allowed_networks", "127.0.0.0/8");
        try (var fake = new FakeCompletions(List.of("Answered ", "by node A."), true);
                TestPlatform a = TestPlatform.start("chatbot_takeover", List.of("chatbot"), null,
                        merged(config, "node-a"))) {
            var chatA = new ChatClient(a);
            UUID ws = a.createWorkspace("takeover");
            String key = chatA.createWidget(ws, ",\"responder\":\"openai\",\"responder_settings\":{\"base_url\":\""
                    + fake.baseUrl() + "\",\"model\":\"m\"}").get("key").asText();
            JsonNode session;
            String runId;
            try (TestPlatform b = TestPlatform.startOn(a, List.of("chatbot"), merged(config, "node-b"))) {
                var chatB = new ChatClient(b);
                session = chatB.session(key);
                var sent = chatB.message(session, "Who answers?", null);
                assertEquals(202, sent.status(), sent.toString());
                runId = sent.json().get("run_id").asText();
                assertTrue(fake.firstArrived.await(20, TimeUnit.SECONDS), "node B asked the model");
                String node = a.jdbi().withHandle(h -> h.createQuery("SELECT status || ':' || node FROM chatbot.runs "
                        + "WHERE id = CAST(:id AS uuid)").bind("id", runId).mapTo(String.class).one());
                assertEquals("running:node-b", node);
            } // node B stops with the run in flight
            JsonNode messages = chatA.awaitHistory(key, session.get("session_id").asText(), m -> m.size() >= 2);
            assertEquals("Answered by node A.", messages.get(1).get("text").asText());
            assertEquals(runId, messages.get(1).get("run_id").asText());
            String finished = a.jdbi().withHandle(h -> h.createQuery("SELECT status || ':' || node || ':' || attempts "
                    + "FROM chatbot.runs WHERE id = CAST(:id AS uuid)").bind("id", runId).mapTo(String.class).one());
            assertEquals("completed:node-a:2", finished);
            assertTrue(fake.requestCount() >= 2);
            // Answered once, even though two nodes worked on it.
            assertEquals(2, messages.size(), messages.toString());
        }
    }

    private static Map<String, String> merged(Map<String, String> config, String node) {
        var m = new java.util.HashMap<>(config);
        m.put("lnp.chatbot.node_id", node);
        return m;
    }
}
