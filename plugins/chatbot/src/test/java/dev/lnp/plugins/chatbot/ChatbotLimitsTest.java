package dev.lnp.plugins.chatbot;

import static dev.lnp.plugins.chatbot.ChatbotApiTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Handshakes per client address and messages per widget, counted in PostgreSQL (so across nodes). */
@PlatformTest(plugins = {"chatbot"}, config = {"lnp.chatbot.limits.handshake_per_minute=6",
        "lnp.chatbot.limits.widget_per_minute=3"})
class ChatbotLimitsTest {

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatbotLimitsTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void handshakesPerAddressAndMessagesPerWidgetAreLimited() throws InterruptedException {
        // Counters are per calendar minute: start well inside one.
        int second = java.time.LocalTime.now(java.time.ZoneOffset.UTC).getSecond();
        if (second > 50) {
            Thread.sleep((61 - second) * 1000L);
        }
        UUID ws = platform.createWorkspace("address");
        String key = chat.createWidget(ws, "").get("key").asText();
        TestResponse r = null;
        for (int i = 0; i < 8; i++) {
            r = chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN, "");
            if (r.status() == 429) {
                break;
            }
            assertEquals(200, r.status(), r.toString());
            JsonNode s = r.json();
            TestResponse m = chat.message(s, "hello", null);
            if (i < 3) {
                assertEquals(202, m.status(), m.toString());
            } else {
                assertProblem(m, 429, "rate_limited");
                assertTrue(m.json().get("detail").asText().contains("this chat"), m.toString());
            }
        }
        assertProblem(r, 429, "rate_limited");
        assertTrue(Integer.parseInt(r.header("Retry-After").orElseThrow()) >= 1);
        assertTrue(r.json().get("detail").asText().contains("handshakes"), r.toString());
        assertEquals(ChatClient.ORIGIN, platform.send("OPTIONS", "/api/cxo/config", null, null,
                Map.of("Origin", ChatClient.ORIGIN)).header("Access-Control-Allow-Origin").orElseThrow());
    }
}
