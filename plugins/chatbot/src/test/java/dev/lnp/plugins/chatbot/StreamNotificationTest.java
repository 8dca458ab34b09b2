package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Streams are woken by LISTEN/NOTIFY, not by polling: with the fallback re-read and the heartbeat at 30 s, an answer
 * still reaches the open stream at once.
 */
@PlatformTest(plugins = {"chatbot"}, config = {"lnp.chatbot.poll_interval=PT30S", "lnp.chatbot.heartbeat=PT30S"})
class StreamNotificationTest {

    @Test
    void anAnswerWakesTheStreamAtOnce(TestPlatform platform) throws Exception {
        var chat = new ChatClient(platform);
        UUID ws = platform.createWorkspace("notify");
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode s = chat.session(key);
        try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), s.get("session_id").asText(), null)) {
            assertEquals(200, stream.status);
            Thread.sleep(500); // the stream has read its (no) events and waits
            long sent = System.nanoTime();
            assertEquals(202, chat.message(s, "hello", null).status());
            stream.next("run.completed");
            long millis = (System.nanoTime() - sent) / 1_000_000;
            System.out.println("message to run.completed on the stream: " + millis + " ms");
            assertTrue(millis < 10_000, "woken by the notification, not the 30 s re-read: " + millis + " ms");
        }
    }
}
