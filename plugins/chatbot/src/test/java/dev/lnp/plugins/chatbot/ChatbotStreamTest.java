package dev.lnp.plugins.chatbot;

import static dev.lnp.plugins.chatbot.ChatbotApiTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The stream (framing, replay, heartbeats), hand-off through a ticket and back, the OpenAI-compatible responder. */
@PlatformTest(plugins = {"projects", "issues", "chatbot"}, config = {"lnp.chatbot.heartbeat=PT1S",
        "lnp.events.subscription_interval=PT0.2S", "lnp.outbound.allowed_networks=127.0.0.0/8"})
class ChatbotStreamTest {

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatbotStreamTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void streamFramesEventsAndReplaysAfterLastEventId() throws Exception {
        UUID ws = platform.createWorkspace("stream");
        JsonNode widget = chat.createWidget(ws, "");
        String key = widget.get("key").asText();
        assertEquals(201, platform.post("/api/v1/chatbot/widgets/" + widget.get("id").asText() + "/articles",
                platform.fullAccessKey(ws), "{\"title\":\"Opening hours\",\"body\":\"We are open from 9 to 5.\"}")
                .status());
        chat.awaitKnowledge(ws);
        JsonNode s = chat.session(key);
        String token = s.get("token").asText();
        String sid = s.get("session_id").asText();
        List<String> ids = new ArrayList<>();
        try (ChatClient.Stream stream = chat.stream(token, sid, null)) {
            assertEquals(200, stream.status);
            assertTrue(stream.response.headers().firstValue("Content-Type").orElseThrow().startsWith("text/event-stream"));
            assertEquals(ChatClient.ORIGIN, stream.response.headers().firstValue("Access-Control-Allow-Origin")
                    .orElseThrow());
            TestResponse sent = chat.message(s, "When are you open?", null);
            assertEquals(202, sent.status());
            String runId = sent.json().get("run_id").asText();
            ChatClient.Event completed = stream.next("message.completed");
            JsonNode message = completed.json().get("message");
            assertEquals("assistant", message.get("role").asText());
            assertEquals(runId, message.get("run_id").asText());
            assertTrue(message.get("text").asText().contains("9 to 5"));
            assertEquals("Opening hours", message.get("citations").get(0).get("title").asText());
            ChatClient.Event done = stream.next("run.completed");
            assertEquals(runId, done.json().get("run_id").asText());
            ids.add(completed.id());
            ids.add(done.id());
            assertTrue(Long.parseLong(done.id()) > Long.parseLong(completed.id()), "ids grow");
            // Framing: id, event and one line of data, in that order; retry first; heartbeats as comments.
            assertEquals(List.of("id: " + completed.id(), "event: message.completed", "data: " + completed.data()),
                    completed.rawLines());
            assertEquals("retry: 3000", stream.lines.get(0));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!stream.lines.contains(": ping") && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(stream.lines.contains(": ping"), stream.lines.toString());

            // The history has the same message.
            JsonNode history = chat.history(key, sid).json().get("messages");
            assertEquals(message.get("id").asText(), history.get(1).get("id").asText());
        }
        // Reconnecting with Last-Event-ID replays only what came after.
        try (ChatClient.Stream replay = chat.stream(token, sid, ids.get(0))) {
            ChatClient.Event first = replay.next("run.completed");
            assertEquals(ids.get(1), first.id());
            Thread.sleep(300);
            assertTrue(replay.events.stream().noneMatch(e -> e.name().equals("message.completed")),
                    "nothing before the last event id comes again");
        }
        try (ChatClient.Stream all = chat.stream(token, sid, "0")) {
            assertEquals(ids.get(0), all.next("message.completed").id());
        }
        // Another session's id with this token; a garbage Last-Event-ID.
        JsonNode other = chat.session(key);
        try (ChatClient.Stream foreign = chat.stream(token, other.get("session_id").asText(), null)) {
            assertEquals(403, foreign.status);
        }
        try (ChatClient.Stream bad = chat.stream(token, sid, "abc")) {
            assertEquals(400, bad.status);
        }
    }

    @Test
    void streamingCanBeSwitchedOff() throws Exception {
        UUID ws = platform.createWorkspace("nostream");
        String key = chat.createWidget(ws, ",\"streaming\":false").get("key").asText();
        JsonNode s = chat.session(key);
        assertFalse(s.get("widget").get("streaming").asBoolean());
        TestResponse r = platform.send("GET", "/api/cxo/stream?session_id=" + s.get("session_id").asText()
                + "&token=" + s.get("token").asText(), null, null, Map.of("Origin", ChatClient.ORIGIN));
        assertProblem(r, 404, "streaming_disabled");
    }

    @Test
    void handoffOpensATicketWithTheTranscriptAndItsCommentsReachTheVisitor() throws Exception {
        UUID ws = platform.createWorkspace("handoff");
        String admin = platform.fullAccessKey(ws);
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode s = chat.session(key);
        String sid = s.get("session_id").asText();
        try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), sid, null)) {
            assertEquals(202, chat.message(s, "My parcel never arrived", null).status());
            stream.next("run.completed");
            // The "Talk to a person" button.
            assertEquals(202, chat.message(s, "Please let me talk to someone", "{\"request_human\":true,"
                    + "\"page_url\":\"https://shop.example/orders\"}").status());
            String ticketId = stream.next("handoff.opened").json().get("ticket_id").asText();
            JsonNode notice = stream.next("message.completed").json().get("message");
            assertEquals("system", notice.get("role").asText());

            TestResponse ticket = platform.get("/api/v1/issues/" + ticketId, admin);
            assertEquals(200, ticket.status(), ticket.toString());
            assertEquals("ticket", ticket.data().get("kind").asText());
            String description = ticket.data().get("description").asText();
            assertTrue(description.contains("My parcel never arrived"), description);
            assertTrue(description.contains("Please let me talk to someone"), description);
            assertEquals("Please let me talk to someone", ticket.data().get("title").asText(), "the reason given");
            assertEquals("high", ticket.data().get("priority").asText());
            assertEquals("issues_create ok plugin", handoffAudit(ws), "the hand-off is in the tool-call audit");

            // An internal note first: members read it, the visitor never does (the next message is the reply).
            TestResponse note = platform.post("/api/v1/issues/" + ticketId + "/comments", admin,
                    "{\"body\":\"Carrier says lost; refund without asking for proof\",\"internal\":true}");
            assertEquals(201, note.status(), note.toString());
            assertTrue(note.data().get("internal").asBoolean());
            // An agent answers on the ticket, over REST: the visitor sees it live and in the history.
            TestResponse comment = platform.post("/api/v1/issues/" + ticketId + "/comments", admin,
                    "{\"body\":\"Hello, this is Sam from support. I am looking into it.\"}");
            assertEquals(201, comment.status(), comment.toString());
            JsonNode reply = stream.next("human_agent.message").json().get("message");
            assertEquals("human_agent", reply.get("role").asText());
            assertEquals("Hello, this is Sam from support. I am looking into it.", reply.get("text").asText());
            JsonNode history = chat.awaitHistory(key, sid, m -> m.size() >= 5);
            assertEquals("human_agent", history.get(history.size() - 1).get("role").asText());
            assertFalse(history.toString().contains("Carrier says lost"), "the internal note is not in the history");

            // Asking again does not open a second ticket: the hand-off is open, the message goes to the person.
            assertEquals(202, chat.message(s, "can I speak to a human?", null).status());
            stream.next("run.completed");
            TestResponse tickets = platform.get("/api/v1/issues?kind=ticket", admin);
            assertEquals(1, tickets.json().get("pagination").get("total").asInt(), tickets.toString());
        }
        // A widget without hand-off says so instead.
        String noHandoff = chat.createWidget(ws, ",\"human_handoff\":false").get("key").asText();
        JsonNode t = chat.session(noHandoff);
        assertEquals(202, chat.message(t, "talk to a person", "{\"request_human\":true}").status());
        JsonNode messages = chat.awaitHistory(noHandoff, t.get("session_id").asText(), m -> m.size() >= 2);
        assertTrue(messages.get(1).get("text").asText().contains("not available"), messages.toString());
    }

    @Test
    void theOpenAiCompatibleResponderStreamsTokens() throws Exception {
        try (var fake = new FakeCompletions(List.of("Hel", "lo ", "from ", "the model."), false)) {
            UUID ws = platform.createWorkspace("openai");
            String key = chat.createWidget(ws, ",\"responder\":\"openai\",\"responder_settings\":{\"base_url\":\""
                    + fake.baseUrl() + "\",\"model\":\"tiny-1\",\"api_key\":\"sk-test\",\"system_prompt\":\"Be brief.\"}")
                    .get("key").asText();
            JsonNode s = chat.session(key);
            String sid = s.get("session_id").asText();
            try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), sid, null)) {
                assertEquals(202, chat.message(s, "Say hello", null).status());
                StringBuilder deltas = new StringBuilder();
                ChatClient.Event delta = stream.next("message.delta");
                String messageId = delta.json().get("message_id").asText();
                deltas.append(delta.json().get("delta").asText());
                JsonNode completed = stream.next("message.completed").json().get("message");
                stream.events.stream().filter(e -> e.name().equals("message.delta"))
                        .forEach(e -> deltas.append(e.json().get("delta").asText()));
                assertEquals("Hello from the model.", completed.get("text").asText());
                assertEquals(messageId, completed.get("id").asText(), "deltas name the message they build");
                assertTrue("Hello from the model.".startsWith(deltas.toString()) || deltas.toString()
                        .equals("Hello from the model."), deltas.toString());
            }
            JsonNode request = fake.requests.get(0);
            assertEquals("tiny-1", request.get("model").asText());
            assertTrue(request.get("stream").asBoolean());
            assertEquals("system", request.get("messages").get(0).get("role").asText());
            assertEquals("Say hello", request.get("messages").get(request.get("messages").size() - 1).get("content")
                    .asText());
            assertEquals("Bearer sk-test", fake.authorizations.get(0));
            // The api_key is write-only.
            JsonNode listed = platform.get("/api/v1/chatbot/widgets", platform.fullAccessKey(ws)).json().get("data").get(0);
            assertFalse(listed.get("responder_settings").has("api_key"));
            assertTrue(listed.get("responder_settings").get("has_api_key").asBoolean());
        }
        // A model server that is down: the run fails, visibly.
        UUID ws = platform.createWorkspace("openai-down");
        String key = chat.createWidget(ws, ",\"responder\":\"openai\",\"responder_settings\":{\"base_url\":"
                + "\"http://127.0.0.1:9/v1\",\"model\":\"m\"}").get("key").asText();
        JsonNode s = chat.session(key);
        try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), s.get("session_id").asText(), null)) {
            assertEquals(202, chat.message(s, "hello?", null).status());
            JsonNode failed = stream.next("run.failed").json();
            assertEquals("responder_failed", failed.get("code").asText());
        }
    }

    /** The workspace's tool-call audit row of the chatbot's hand-off; written off the call's path, so waited for. */
    private String handoffAudit(UUID ws) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        do {
            var row = platform.jdbi().withHandle(h -> h.createQuery("SELECT tool || ' ' || outcome || ' ' || endpoint "
                    + "FROM lnp_core.tool_calls WHERE workspace_id = :ws").bind("ws", ws).mapTo(String.class)
                    .findFirst());
            if (row.isPresent()) {
                return row.get();
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        return "no row";
    }
}
