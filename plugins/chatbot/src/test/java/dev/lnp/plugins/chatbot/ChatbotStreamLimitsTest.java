package dev.lnp.plugins.chatbot;

import static dev.lnp.plugins.chatbot.ChatbotApiTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Open streams per conversation and per client address are bounded; a closed stream frees its place. */
@PlatformTest(plugins = {"chatbot"}, config = {"lnp.chatbot.heartbeat=PT1S",
        "lnp.chatbot.limits.streams_per_session=2", "lnp.chatbot.limits.streams_per_address=3"})
class ChatbotStreamLimitsTest {

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatbotStreamLimitsTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void aConversationAndAnAddressHoldBoundedStreamsAndAClosedOneFreesItsPlace() throws Exception {
        UUID ws = platform.createWorkspace("stream-limits");
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode a = chat.session(key);
        JsonNode b = chat.session(key);
        try (ChatClient.Stream a1 = open(a); ChatClient.Stream a2 = open(a); ChatClient.Stream b1 = open(b)) {
            TestResponse third = refused(a);
            assertProblem(third, 429, "too_many_streams");
            assertEquals("1", third.header("Retry-After").orElseThrow(), "retry after one heartbeat");
            assertEquals(ChatClient.ORIGIN, third.header("Access-Control-Allow-Origin").orElseThrow(),
                    "the widget can read the refusal");
            assertTrue(third.json().get("detail").asText().contains("this conversation"), third.toString());

            TestResponse fourth = refused(b);
            assertProblem(fourth, 429, "too_many_streams");
            assertTrue(fourth.json().get("detail").asText().contains("this address"), fourth.toString());

            // the client goes away; the server notices at the stream's next heartbeat and frees the place
            a1.close();
            long deadline = System.nanoTime() + 10_000_000_000L;
            int status = 0;
            while (System.nanoTime() < deadline && status != 200) {
                try (ChatClient.Stream again = chat.stream(a.get("token").asText(), a.get("session_id").asText(),
                        null)) {
                    status = again.status;
                }
                if (status != 200) {
                    Thread.sleep(200);
                }
            }
            assertEquals(200, status, "a closed stream's place is free again");
        }
    }

    private ChatClient.Stream open(JsonNode session) throws Exception {
        ChatClient.Stream stream = chat.stream(session.get("token").asText(), session.get("session_id").asText(),
                null);
        assertEquals(200, stream.status);
        return stream;
    }

    private TestResponse refused(JsonNode session) {
        return platform.send("GET", "/api/cxo/stream?session_id=" + session.get("session_id").asText() + "&token="
                + URLEncoder.encode(session.get("token").asText(), StandardCharsets.UTF_8), null, null,
                Map.of("Origin", ChatClient.ORIGIN));
    }
}
