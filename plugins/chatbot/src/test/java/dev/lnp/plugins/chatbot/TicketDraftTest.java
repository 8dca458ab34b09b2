package dev.lnp.plugins.chatbot;

import static dev.lnp.plugins.chatbot.KnowledgeApi.ask;
import static dev.lnp.plugins.chatbot.KnowledgeApi.awaitIndexed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A hand-off ticket solved with the team's reply becomes a knowledge draft (the visitor's question, the reply),
 * which the chat never answers from until an admin approves it, over the API and on the knowledge page; a ticket
 * closed without a reply drafts nothing.
 */
@PlatformTest(plugins = {"projects", "issues", "chatbot"}, config = {"lnp.chatbot.knowledge.index_interval=PT0.2S"})
class TicketDraftTest {

    static final String QUESTION = "How do I change the billing address printed on my invoices?";
    static final String REPLY = "Open Account, then Billing details, and edit the address there. Invoices issued "
            + "from then on carry the new address; older invoices keep the one they were issued with.";

    private final TestPlatform platform;
    private final ChatClient chat;

    TicketDraftTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void aSolvedTicketDraftsAnAnswerThatAnAdminApproves() throws Exception {
        UUID ws = platform.createWorkspace("ticket-draft");
        String admin = platform.fullAccessKey(ws);
        String ticket = handOff(ws, admin, QUESTION);
        TestResponse comment = platform.post("/api/v1/issues/" + ticket + "/comments", admin,
                Json.object().put("body", REPLY).toString());
        assertEquals(201, comment.status(), comment.toString());
        solve(admin, ticket);

        JsonNode draft = awaitDraft(admin);
        assertEquals("ticket_answer", draft.get("kind").asText());
        assertEquals("draft", draft.get("status").asText());
        assertEquals(QUESTION, draft.get("title").asText(), "the visitor's question, not the request for a person");
        assertEquals(ticket, draft.get("ticket_id").asText());
        String id = draft.get("id").asText();
        assertEquals(REPLY, platform.get("/api/v1/chatbot/knowledge/sources/" + id, admin).data().get("content")
                .asText());
        assertEquals(1, platform.get("/api/v1/chatbot/knowledge", admin).data().get("drafts").asInt());

        // Not answered from while a draft, even after a while and an edit.
        Thread.sleep(600);
        TestResponse edited = platform.patch("/api/v1/chatbot/knowledge/sources/" + id, admin,
                Json.object().put("content", REPLY + " The address can be changed at any time.").toString());
        assertEquals(200, edited.status(), edited.toString());
        assertEquals("draft", edited.data().get("status").asText(), "an edit keeps it a draft");
        Thread.sleep(600);
        assertEquals(0, ask(platform, admin, "where do I change my invoice address").size());

        TestResponse approved = platform.post("/api/v1/chatbot/knowledge/sources/" + id + "/approve", admin, "");
        assertEquals(200, approved.status(), approved.toString());
        assertEquals("pending", approved.data().get("status").asText());
        awaitIndexed(platform, admin);
        JsonNode found = ask(platform, admin, "where do I change my invoice address");
        assertTrue(found.get(0).get("text").asText().contains("Billing details"), found.toString());
        TestResponse again = platform.post("/api/v1/chatbot/knowledge/sources/" + id + "/approve", admin, "");
        assertEquals(409, again.status(), again.toString());
        assertEquals("not_a_draft", again.json().get("code").asText());

        // The same ticket solved again (its event delivered again) drafts nothing more.
        reopenAndSolve(admin, ticket);
        Thread.sleep(1500);
        assertEquals(0, platform.get("/api/v1/chatbot/knowledge", admin).data().get("drafts").asInt());
    }

    @Test
    void aTicketClosedWithoutAReplyDraftsNothing() throws Exception {
        UUID ws = platform.createWorkspace("ticket-no-reply");
        String admin = platform.fullAccessKey(ws);
        String ticket = handOff(ws, admin, "Is the shop open on Sundays?");
        solve(admin, ticket);
        // A second ticket, answered, shows the events were delivered by the time its draft is there.
        String answered = handOff(ws, admin, QUESTION);
        assertEquals(201, platform.post("/api/v1/issues/" + answered + "/comments", admin,
                Json.object().put("body", REPLY).toString()).status());
        solve(admin, answered);
        JsonNode draft = awaitDraft(admin);
        assertEquals(answered, draft.get("ticket_id").asText());
        assertEquals(1, platform.get("/api/v1/chatbot/knowledge", admin).data().get("drafts").asInt());
    }

    @Test
    void theKnowledgePageListsDraftsToApproveOrDiscard() throws Exception {
        UUID ws = platform.createWorkspace("ticket-draft-pages");
        String admin = platform.fullAccessKey(ws);
        for (String q : new String[] {QUESTION, "Can I pay by bank transfer?"}) {
            String ticket = handOff(ws, admin, q);
            platform.post("/api/v1/issues/" + ticket + "/comments", admin, Json.object().put("body",
                    q.startsWith("Can") ? "Yes: choose bank transfer at checkout; the order ships when the money "
                            + "arrives." : REPLY).toString());
            solve(admin, ticket);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline
                && platform.get("/api/v1/chatbot/knowledge", admin).data().get("drafts").asInt() < 2) {
            Thread.sleep(100);
        }
        TestPerson member = platform.person(ws, "admin");
        String base = KnowledgePages.BASE;

        String overview = member.get(base).body();
        assertTrue(overview.contains("Drafts from resolved tickets"), overview);
        assertTrue(overview.contains("Can I pay by bank transfer?"), overview);
        assertTrue(overview.contains("2 waiting for approval"), overview);
        String[] ids = platform.get("/api/v1/chatbot/knowledge/sources", admin).json().get("data").findValuesAsText("id")
                .toArray(String[]::new);
        var page = member.get(base + "/" + ids[0]);
        assertEquals(200, page.status(), page.body());
        assertTrue(page.body().contains("not answered from until approved"), page.body());
        assertTrue(page.body().contains("Approve") && page.body().contains("Discard"), page.body());

        var approved = member.post(base + "/" + ids[0] + "/approve");
        assertEquals(303, approved.status(), approved.body());
        var discarded = member.post(base + "/" + ids[1] + "/delete");
        assertEquals(303, discarded.status(), discarded.body());
        assertEquals(404, platform.get("/api/v1/chatbot/knowledge/sources/" + ids[1], admin).status());
        assertTrue(!"draft".equals(platform.get("/api/v1/chatbot/knowledge/sources/" + ids[0], admin).data()
                .get("status").asText()));
        // Approving what is no draft any more: a readable page, not an error.
        var twice = member.post(base + "/" + ids[0] + "/approve");
        assertEquals(409, twice.status(), twice.body());
        assertTrue(twice.body().contains("not a draft"), twice.body());
    }

    /** A visitor asks, then asks for a person: the hand-off's ticket. */
    private String handOff(UUID ws, String admin, String question) throws Exception {
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode s = chat.session(key);
        String sid = s.get("session_id").asText();
        assertEquals(202, chat.message(s, question, null).status());
        chat.awaitHistory(key, sid, m -> m.size() >= 2);
        assertEquals(202, chat.message(s, "Please let me talk to someone", "{\"request_human\":true}").status());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            Optional<UUID> ticket = platform.jdbi().withHandle(h -> h.createQuery("SELECT ticket_id FROM "
                    + "chatbot.sessions WHERE id = :id AND ticket_id IS NOT NULL").bind("id", UUID.fromString(sid))
                    .mapTo(UUID.class).findOne());
            if (ticket.isPresent()) {
                return ticket.get().toString();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no ticket for the hand-off");
    }

    private void solve(String admin, String ticket) {
        TestResponse r = platform.patch("/api/v1/issues/" + ticket, admin, "{\"status\":\"solved\"}");
        assertEquals(200, r.status(), r.toString());
    }

    private void reopenAndSolve(String admin, String ticket) {
        assertEquals(200, platform.patch("/api/v1/issues/" + ticket, admin, "{\"status\":\"open\"}").status());
        assertEquals(200, platform.patch("/api/v1/issues/" + ticket, admin, "{\"status\":\"closed\"}").status());
    }

    private JsonNode awaitDraft(String admin) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (JsonNode s : platform.get("/api/v1/chatbot/knowledge/sources", admin).json().get("data")) {
                if ("draft".equals(s.get("status").asText())) {
                    return s;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no draft");
    }
}
