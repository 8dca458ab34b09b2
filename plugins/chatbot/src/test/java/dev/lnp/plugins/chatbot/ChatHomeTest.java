package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The chat home over HTTP: conversations per week answered by the assistant alone or handed to a person, the
 * ones waiting now and the inbox they lead to. Conversations are opened through the widget's handshake; what
 * happened in them is written straight into the tables, as the run worker and the hand-off would.
 */
@PlatformTest(plugins = {"projects", "issues", "chatbot"})
class ChatHomeTest {

    private static final LocalDate MONDAY = LocalDate.now(ZoneOffset.UTC)
            .with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatHomeTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void conversationsPerWeekAreCountedForThisWorkspaceOnly() {
        UUID ws = platform.createWorkspace("chat-home");
        String key = chat.createWidget(ws, "").get("key").asText();
        conversation(key, 0, true, null);
        conversation(key, 0, true, "waiting");
        conversation(key, 2, true, null);
        conversation(key, 2, true, "closed");
        conversation(key, 0, false, null);                 // opened, never written in: not a conversation
        conversation(key, 14, true, null);                 // before the twelve weeks
        UUID other = platform.createWorkspace("chat-home-other");
        conversation(chat.createWidget(other, "").get("key").asText(), 0, true, "waiting");
        TestPerson member = platform.person(ws, "member");

        String home = member.get("/app/chat/overview").body();
        assertTrue(home.contains("<h1>Chat</h1>"), home);
        assertTrue(home.contains("<a href=\"/app/chat/overview\" aria-current=\"page\">Chat overview</a>"), home);
        assertTrue(home.contains("<a href=\"/app/chat?state=waiting\">1</a>"), "one waits here, not theirs: " + home);
        assertTrue(home.contains("2 of 4 conversations in the last 12 weeks"), home);
        assertTrue(home.contains(">50 %</dd>"), home);
        assertTrue(row(home, MONDAY).matches("(?s).*>1<.*>1<.*"), row(home, MONDAY));
        assertTrue(row(home, MONDAY.minusWeeks(2)).matches("(?s).*>1<.*>1<.*"), row(home, MONDAY.minusWeeks(2)));
        assertTrue(row(home, MONDAY.minusWeeks(1)).matches("(?s).*>0<.*>0<.*"), row(home, MONDAY.minusWeeks(1)));

        String waiting = member.get("/app/chat?state=waiting").body();
        assertTrue(waiting.contains("Refund please"), waiting);
        assertFalse(waiting.contains("Closed already"), waiting);
        assertEquals(404, member.get("/app/chat/" + UUID.randomUUID()).status(), "the inbox's pages still answer");
    }

    @Test
    void anEmptyWorkspaceSaysThereIsNoDataYet() {
        UUID ws = platform.createWorkspace("chat-home-empty");
        var home = platform.person(ws, "member").get("/app/chat/overview");
        assertEquals(200, home.status());
        assertTrue(home.body().contains("No visitor has written in the last 12 weeks."), home.body());
        assertTrue(home.body().contains("No conversation in the last 12 weeks."), home.body());
    }

    /** A conversation begun {@code weeksAgo} (on that week's Tuesday, or today for this week). */
    private void conversation(String key, int weeksAgo, boolean written, String handoff) {
        UUID session = UUID.fromString(chat.session(key).get("session_id").asText());
        var began = weeksAgo == 0 ? java.time.OffsetDateTime.now(ZoneOffset.UTC)
                : MONDAY.minusWeeks(weeksAgo).plusDays(1).atStartOfDay().atOffset(ZoneOffset.UTC);
        platform.jdbi().useHandle(h -> {
            h.createUpdate("UPDATE chatbot.sessions SET created_at = :at WHERE id = :id")
                    .bind("at", began).bind("id", session).execute();
            if (written) {
                h.createUpdate("INSERT INTO chatbot.messages (workspace_id, session_id, role, text)"
                                + " SELECT workspace_id, id, 'visitor', 'Hello' FROM chatbot.sessions WHERE id = :id")
                        .bind("id", session).execute();
            }
            if (handoff != null) {
                h.createUpdate("UPDATE chatbot.sessions SET handoff_state = :state, handed_off_at = :at,"
                                + " handoff_reason = :reason, last_visitor_at = :at WHERE id = :id")
                        .bind("state", handoff).bind("at", began).bind("id", session)
                        .bind("reason", handoff.equals("waiting") ? "Refund please" : "Closed already").execute();
            }
        });
    }

    private static String row(String html, LocalDate week) {
        String label = "<th scope=\"row\">" + ChatHome.WEEK.format(week) + "</th>";
        int at = html.indexOf(label);
        assertTrue(at >= 0, "no row for " + label);
        return html.substring(at, html.indexOf("</tr>", at));
    }
}
