package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The hand-off as a conversation with a person, over real HTTP: after "Talk to a person" the visitor's messages
 * reach the person (the conversation and the ticket) and not the assistant, the state survives a reload (the
 * handshake tells it), the ticket is titled with the reason, a member's reply from the chat inbox reaches the
 * visitor's stream at once and once only, and closing gives the visitor back to the assistant.
 */
@PlatformTest(plugins = {"projects", "issues", "chatbot"}, config = {"lnp.chatbot.heartbeat=PT1S",
        "lnp.events.subscription_interval=PT0.2S"})
class ChatHandoffTest {

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatHandoffTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void afterAHandOffTheVisitorTalksToAPersonUntilTheConversationIsClosed() throws Exception {
        UUID ws = platform.createWorkspace("handoff-inbox");
        String admin = platform.fullAccessKey(ws);
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode s = chat.session(key);
        String sid = s.get("session_id").asText();
        assertTrue(s.get("handoff_state").isNull(), "a new conversation is with the assistant");
        TestPerson member = platform.person(ws, "member");

        try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), sid, null)) {
            assertEquals(202, chat.message(s, "Where is my parcel?", null).status());
            stream.next("run.completed");
            assertEquals(202, chat.message(s, "My order 4711 arrived damaged", "{\"request_human\":true}").status());
            String ticketId = stream.next("handoff.opened").json().get("ticket_id").asText();
            stream.next("run.completed");

            JsonNode ticket = platform.get("/api/v1/issues/" + ticketId, admin).data();
            assertEquals("My order 4711 arrived damaged", ticket.get("title").asText(), "the reason is the title");
            assertEquals("high", ticket.get("priority").asText());

            // A reload: the handshake resumes the conversation and says a person has it.
            TestResponse resumed = chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN,
                    ",\"session_id\":\"" + sid + "\"");
            assertEquals(sid, resumed.json().get("session_id").asText());
            assertEquals("waiting", resumed.json().get("handoff_state").asText());
            assertEquals("waiting", chat.history(key, sid).json().get("handoff_state").asText());

            // The inbox lists it, live pages follow the hand-off events.
            TestPerson.Page inbox = member.get("/app/chat");
            assertEquals(200, inbox.status(), inbox.body());
            assertTrue(inbox.body().contains("My order 4711 arrived damaged"), inbox.body());
            assertTrue(inbox.body().contains("Waiting for a person"), inbox.body());
            assertTrue(inbox.body().contains("data-live="), "the inbox refreshes itself");

            // The visitor's next message goes to the person: stored, on the ticket, and no answer from the bot.
            assertEquals(202, chat.message(s, "The box is crushed, can you send a new one?", null).status());
            stream.next("run.completed");
            JsonNode comments = awaitComments(admin, ticketId, 1);
            assertEquals("Visitor: The box is crushed, can you send a new one?", comments.get(0).get("body").asText());
            Thread.sleep(800); // the comment's issues event has been delivered to the chatbot by now
            JsonNode history = chat.history(key, sid).json().get("messages");
            assertEquals("visitor", last(history).get("role").asText(), "no assistant answer, no echo: " + history);
            assertEquals(List.of("visitor", "assistant", "visitor", "system", "visitor"), roles(history));

            TestPerson.Page page = member.get("/app/chat/" + sid);
            assertEquals(200, page.status(), page.body());
            assertTrue(page.body().contains("The box is crushed, can you send a new one?"), page.body());
            assertTrue(page.body().contains("Where is my parcel?"), "the history before the hand-off too");

            // Take over: the visitor is told a person joined.
            TestPerson.Page taken = member.post("/app/chat/" + sid + "/take");
            assertEquals(303, taken.status(), taken.body());
            assertEquals(HandoffService.JOINED, stream.next("message.completed").json().get("message").get("text").asText());
            assertTrue(member.get("/app/chat").body().contains("Taken over by you"));
            assertTrue(platform.person(ws, "admin").get("/app/chat").body().contains("Taken over by " + member.email()),
                    "the others read who took it, by name (a member without one by their address)");
            String conversation = member.get("/app/chat/" + sid).body();
            assertTrue(conversation.contains("<form method=\"post\" action=\"/app/chat/" + sid + "/reply\""),
                    "the reply is written on the conversation's page: " + conversation);

            // The reply reaches the visitor's stream within a second, and the ticket, once.
            long sent = System.nanoTime();
            TestPerson.Page replied = member.post("/app/chat/" + sid + "/reply", "text", "We are sending a new pair today.");
            assertEquals(303, replied.status(), replied.body());
            assertEquals("/app/chat/" + sid, replied.location());
            JsonNode reply = stream.next("human_agent.message").json().get("message");
            long tookMillis = (System.nanoTime() - sent) / 1_000_000;
            assertTrue(tookMillis < 1000, "the reply took " + tookMillis + " ms");
            assertEquals("We are sending a new pair today.", reply.get("text").asText());
            assertEquals("We are sending a new pair today.", awaitComments(admin, ticketId, 2).get(1).get("body").asText());
            Thread.sleep(800);
            assertEquals(1, roles(chat.history(key, sid).json().get("messages")).stream()
                    .filter("human_agent"::equals).count(), "the ticket's comment is not delivered a second time");

            // A comment written on the ticket still reaches the visitor.
            assertEquals(201, platform.post("/api/v1/issues/" + ticketId + "/comments", admin,
                    "{\"body\":\"Tracking number follows by mail.\"}").status());
            assertEquals("Tracking number follows by mail.",
                    stream.next("human_agent.message").json().get("message").get("text").asText());

            // Close: the visitor is told, the state says so, the assistant answers again.
            TestPerson.Page closed = member.post("/app/chat/" + sid + "/close", "confirm", "yes");
            assertEquals(303, closed.status(), closed.body());
            stream.next("handoff.closed");
            assertEquals("closed", chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN,
                    ",\"session_id\":\"" + sid + "\"").json().get("handoff_state").asText());
            assertFalse(member.get("/app/chat?state=open").body().contains("My order 4711"), "closed: not open");
            assertTrue(member.get("/app/chat?state=closed").body().contains("My order 4711"));
            assertEquals(202, chat.message(s, "What are your opening hours?", null).status());
            nextMessage(stream, "assistant");
            assertEquals(3, awaitComments(admin, ticketId, 3).size(), "nothing more on the ticket after the close");
        }
    }

    /** A workspace that switched the issues module off gets no ticket: the module is off for plugins too. */
    @Test
    void aWorkspaceWithoutTheIssuesModuleGetsNoTicketButThePerson() throws Exception {
        UUID ws = platform.createWorkspace("handoff-issues-off");
        String admin = platform.fullAccessKey(ws);
        var off = OperatorCli.run(platform, "workspace", "modules", "--workspace", ws.toString(), "--disable",
                "issues");
        assertEquals(0, off.exit(), off.err());
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode s = chat.session(key);
        String sid = s.get("session_id").asText();
        try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), sid, null)) {
            assertEquals(202, chat.message(s, "Refund for order 12", "{\"request_human\":true}").status());
            assertTrue(stream.next("handoff.opened").json().get("ticket_id").isNull(), "no ticket");
            stream.next("run.completed");
        }
        long tickets = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM issues.tickets WHERE workspace_id = :ws").bind("ws", ws).mapTo(Long.class).one());
        assertEquals(0, tickets, "the switched-off module wrote nothing");
        assertTrue(platform.person(ws, "member").get("/app/chat/" + sid).body().contains("Refund for order 12"));
        assertEquals(404, platform.get("/api/v1/issues?kind=ticket", admin).status(), "off for callers too");
    }

    @Test
    void aClosedOrUnknownConversationIsRefusedInWords() throws Exception {
        UUID ws = platform.createWorkspace("handoff-refusals");
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode s = chat.session(key);
        String sid = s.get("session_id").asText();
        TestPerson member = platform.person(ws, "member");

        // Never handed off: not in the inbox.
        assertEquals(404, member.get("/app/chat/" + sid).status());
        assertEquals(404, member.post("/app/chat/" + sid + "/reply", "text", "Hello").status());
        assertEquals(404, member.get("/app/chat/not-an-id").status());
        assertEquals(404, member.post("/app/chat/" + UUID.randomUUID() + "/take").status());
        TestPerson.Page empty = member.get("/app/chat");
        assertTrue(empty.body().contains("Nobody is waiting for a person."), empty.body());
        assertEquals(200, member.get("/app/chat?state=nonsense").status(), "an unknown filter is the default list");

        try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), sid, null)) {
            assertEquals(202, chat.message(s, "I need a human", "{\"request_human\":true}").status());
            stream.next("handoff.opened");
        }
        // A blank reply is refused next to its field, the form kept.
        TestPerson.Page blank = member.post("/app/chat/" + sid + "/reply", "text", "   ");
        assertEquals(400, blank.status(), blank.body());
        assertTrue(blank.body().contains("Fill in Your reply.") && blank.body().contains("aria-invalid=\"true\""), blank.body());
        // Written on the conversation's page, a refused reply comes back there, with what was typed.
        String tooLong = "Thanks for waiting. ".repeat(250);
        TestPerson.Page refused = member.post("/app/chat/" + sid + "/reply", "text", tooLong,
                "_shown_on", "/app/chat/" + sid);
        assertEquals(400, refused.status(), refused.body());
        assertTrue(refused.body().contains("<h1>Chat: ") && refused.body().contains("Write at most 4000 characters.")
                && refused.body().contains(tooLong.strip()), refused.body());

        assertEquals(303, member.post("/app/chat/" + sid + "/close", "confirm", "yes").status());
        TestPerson.Page again = member.post("/app/chat/" + sid + "/close", "confirm", "yes");
        assertEquals(409, again.status(), again.body());
        assertTrue(again.body().contains("This conversation is closed"), again.body());
        TestPerson.Page late = member.post("/app/chat/" + sid + "/reply", "text", "Still there?");
        assertEquals(409, late.status(), late.body());
        assertEquals(409, member.get("/app/chat/" + sid + "/reply").status());
        TestPerson.Page closedPage = member.get("/app/chat/" + sid);
        assertFalse(closedPage.body().contains("/reply\""), "a closed conversation offers no reply");

        // Another workspace's member does not see it.
        TestPerson stranger = platform.person(platform.createWorkspace("other"), "member");
        assertEquals(404, stranger.get("/app/chat/" + sid).status());

        // Asking for a person again opens the hand-off again, with a new ticket.
        JsonNode t = chat.session(key);
        String tid = t.get("session_id").asText();
        assertEquals(202, chat.message(t, "Person please", "{\"request_human\":true}").status());
        awaitState(key, tid, "waiting");
        String inbox = member.get("/app/chat").body();
        assertTrue(inbox.indexOf("Person please") < inbox.indexOf("I need a human"), "open ones before closed ones");
    }

    private JsonNode awaitComments(String admin, String ticketId, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        JsonNode data = null;
        while (System.nanoTime() < deadline) {
            TestResponse r = platform.get("/api/v1/issues/" + ticketId + "/comments", admin);
            assertEquals(200, r.status(), r.toString());
            data = r.json().get("data");
            if (data.size() >= atLeast) {
                return data;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("fewer than " + atLeast + " comments: " + data);
    }

    private void awaitState(String key, String sid, String state) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (state.equals(chat.history(key, sid).json().path("handoff_state").asText())) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never " + state);
    }

    private static JsonNode nextMessage(ChatClient.Stream stream, String role) throws InterruptedException {
        for (int i = 0; i < 10; i++) {
            JsonNode m = stream.next("message.completed").json().get("message");
            if (role.equals(m.get("role").asText())) {
                return m;
            }
        }
        throw new AssertionError("no " + role + " message");
    }

    private static JsonNode last(JsonNode array) {
        return array.get(array.size() - 1);
    }

    private static List<String> roles(JsonNode messages) {
        List<String> roles = new ArrayList<>();
        messages.forEach(m -> roles.add(m.get("role").asText()));
        return roles;
    }
}
