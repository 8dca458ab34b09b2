package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A deployment without the issues plugin: the hand-off has no ticket, and still reaches a person in the inbox. */
@PlatformTest(plugins = "chatbot", config = "lnp.chatbot.heartbeat=PT1S")
class ChatHandoffWithoutIssuesTest {

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatHandoffWithoutIssuesTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void withoutTicketsTheHandOffStillReachesTheInbox() throws Exception {
        UUID ws = platform.createWorkspace("handoff-no-issues");
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode s = chat.session(key);
        String sid = s.get("session_id").asText();
        try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), sid, null)) {
            assertEquals(202, chat.message(s, "Refund for order 12", "{\"request_human\":true}").status());
            assertTrue(stream.next("handoff.opened").json().get("ticket_id").isNull());
            stream.next("run.completed");
            assertEquals(202, chat.message(s, "Hello?", null).status());
            stream.next("run.completed");
            TestPerson member = platform.person(ws, "member");
            TestPerson.Page page = member.get("/app/chat/" + sid);
            assertTrue(page.body().contains("Hello?") && page.body().contains("none (the issues module"), page.body());
            assertEquals(303, member.post("/app/chat/" + sid + "/reply", "text", "Hi, Ana here.").status());
            assertEquals("Hi, Ana here.", stream.next("human_agent.message").json().get("message").get("text").asText());
        }
    }

}
