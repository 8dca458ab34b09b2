package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A stream outlives the server's idle and read timeouts (2 s here): the connection's deadlines bound reading a
 * request, not writing a long answer.
 */
@PlatformTest(plugins = {"chatbot"}, config = {"lnp.http.idle_timeout_seconds=2", "lnp.http.read_timeout_seconds=2",
        "lnp.chatbot.heartbeat=PT0.5S"})
class ChatbotLongStreamTest {

    @Test
    void aStreamStaysOpenPastTheConnectionTimeouts(TestPlatform platform) throws Exception {
        var chat = new ChatClient(platform);
        UUID ws = platform.createWorkspace("long");
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode s = chat.session(key);
        try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), s.get("session_id").asText(), null)) {
            assertEquals(200, stream.status);
            Thread.sleep(6_000);
            assertFalse(stream.ended, "the stream is still open: " + stream.lines);
            assertEquals(202, chat.message(s, "anyone there?", null).status());
            assertEquals("assistant", stream.next("message.completed").json().get("message").get("role").asText());
            assertTrue(stream.lines.stream().filter(": ping"::equals).count() >= 5, stream.lines.toString());
        }
    }
}
