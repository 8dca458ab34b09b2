package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A widget's limits on its language model: per conversation and per widget and day, on requests and on tokens.
 * Over a limit the visitor reads why and is pointed to a person, and the model is not called.
 */
@PlatformTest(plugins = {"chatbot"}, config = "lnp.outbound.allowed_networks=127.0.0.0/8")
class ChatbotLlmLimitsTest {

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatbotLlmLimitsTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    private String widget(String name, FakeCompletions fake, String limits) {
        UUID ws = platform.createWorkspace(name);
        return chat.createWidget(ws, ",\"responder\":\"openai\",\"responder_settings\":{\"base_url\":\""
                + fake.baseUrl() + "\",\"model\":\"m\"," + limits + "}").get("key").asText();
    }

    /** Sends {@code text} and answers the assistant's reply to it. */
    private String ask(String key, JsonNode session, String text) throws InterruptedException {
        String sid = session.get("session_id").asText();
        int before = chat.history(key, sid).json().get("messages").size();
        assertEquals(202, chat.message(session, text, null).status());
        JsonNode messages = chat.awaitHistory(key, sid, m -> m.size() >= before + 2);
        return messages.get(messages.size() - 1).get("text").asText();
    }

    @Test
    void aConversationGetsAsManyModelAnswersAsItsLimitThenIsPointedToAPerson() throws Exception {
        try (var fake = new FakeCompletions(List.of("An answer."), false)) {
            String key = widget("per-session", fake, "\"max_requests_per_session\":2");
            JsonNode session = chat.session(key);
            assertEquals("An answer.", ask(key, session, "first"));
            assertEquals("An answer.", ask(key, session, "second"));
            String third = ask(key, session, "third");
            assertTrue(third.contains("cannot answer more questions in this conversation"), third);
            assertTrue(third.contains("Talk to a person"), third);
            assertEquals(2, fake.requests.size(), "the model was not called over the limit");
            // Another conversation of the same widget starts afresh.
            assertEquals("An answer.", ask(key, chat.session(key), "again"));
            assertEquals(3, fake.requests.size());
        }
    }

    @Test
    void theWidgetsDailyLimitHoldsAcrossConversations() throws Exception {
        try (var fake = new FakeCompletions(List.of("Yes."), false)) {
            String key = widget("per-day", fake, "\"max_requests_per_day\":1");
            assertEquals("Yes.", ask(key, chat.session(key), "one"));
            String refused = ask(key, chat.session(key), "two");
            assertTrue(refused.contains("cannot answer more questions today"), refused);
            assertEquals(1, fake.requests.size());
        }
    }

    @Test
    void aTokenLimitStopsTheNextRequestOnceReached() throws Exception {
        try (var fake = new FakeCompletions(List.of("A rather long answer that uses tokens."), false)) {
            String key = widget("tokens", fake, "\"max_tokens_per_session\":5");
            JsonNode session = chat.session(key);
            assertEquals("A rather long answer that uses tokens.", ask(key, session, "tell me"));
            String refused = ask(key, session, "more");
            assertTrue(refused.contains("in this conversation"), refused);
            assertEquals(1, fake.requests.size());
            assertTrue(fake.requests.get(0).path("stream_options").path("include_usage").asBoolean(),
                    "the server is asked for the tokens it used");
        }
    }

    @Test
    void withoutAPersonTheVisitorIsAskedToComeBackLater() throws Exception {
        try (var fake = new FakeCompletions(List.of("Fine."), false)) {
            UUID ws = platform.createWorkspace("no-person");
            String key = chat.createWidget(ws, ",\"human_handoff\":false,\"responder\":\"openai\","
                    + "\"responder_settings\":{\"base_url\":\"" + fake.baseUrl() + "\",\"model\":\"m\","
                    + "\"max_requests_per_session\":1}").get("key").asText();
            JsonNode session = chat.session(key);
            ask(key, session, "one");
            String refused = ask(key, session, "two");
            assertTrue(refused.contains("try again later") && !refused.contains("person"), refused);
        }
    }

    @Test
    void aLimitThatIsNotAWholeNumberOfOneOrMoreIsRefused() {
        UUID ws = platform.createWorkspace("bad-limit");
        var r = platform.post("/api/v1/chatbot/widgets", platform.fullAccessKey(ws), "{\"name\":\"Help\","
                + "\"allowed_origins\":[\"" + ChatClient.ORIGIN + "\"],\"responder\":\"openai\","
                + "\"responder_settings\":{\"max_requests_per_day\":0}}");
        assertEquals(422, r.status(), r.toString());
        assertEquals("/responder_settings/max_requests_per_day", r.json().get("errors").get(0).get("pointer").asText());
    }
}
