package dev.lnp.plugins.chatbot;

import static dev.lnp.plugins.chatbot.ChatbotApiTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Short-lived tokens (2 s here): refused as expired, the stream says so and closes. */
@PlatformTest(plugins = {"chatbot"}, config = {"lnp.chatbot.token_lifetime=PT2S"})
class ChatbotTokenExpiryTest {

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatbotTokenExpiryTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void anExpiredTokenIsRefusedAndTheStreamEndsWithTokenExpired() throws Exception {
        UUID ws = platform.createWorkspace("expiry");
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode s = chat.session(key);
        long started = System.nanoTime();
        try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), s.get("session_id").asText(), null)) {
            assertEquals(200, stream.status);
            ChatClient.Event expired = stream.next("token.expired");
            assertEquals("{}", expired.data());
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!stream.ended && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(stream.ended, "the server closes the stream after token.expired");
            assertTrue(System.nanoTime() - started >= 1_000_000_000L, "not before the token's time is up");
        }
        TestResponse late = chat.message(s, "still there?", null);
        assertProblem(late, 401, "token_expired");
        // Re-handshaking with the same session id resumes the conversation with a fresh token.
        TestResponse again = chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN,
                ",\"session_id\":\"" + s.get("session_id").asText() + "\"");
        assertEquals(s.get("session_id").asText(), again.json().get("session_id").asText());
        assertEquals(202, chat.message(again.json(), "still there?", null).status());
    }
}
