package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The Support home over HTTP: tickets per week, the median first reply, the open tickets and their list. */
@PlatformTest(plugins = {"projects", "issues"})
class SupportHomeTest {

    private static final LocalDate MONDAY = LocalDate.now(ZoneOffset.UTC)
            .with(TemporalAdjusters.previousOrSame(java.time.DayOfWeek.MONDAY));

    @Test
    void ticketsPerWeekAndTheMedianFirstReplyCountThisWorkspacesTicketsOnly(TestPlatform platform) {
        UUID ws = platform.createWorkspace("support-home");
        String key = platform.key(ws, "issues.read", "issues.write");
        TestPerson member = platform.person(ws, "member");
        Instant now = Instant.now();

        // Three weeks ago, answered by a member two hours later, solved two weeks ago.
        UUID early = ticket(platform, key, "Invoice wrong");
        reply(member, early, "body", "Corrected, sorry.");
        backdate(platform, early, monday(3).plus(Duration.ofHours(9)), Duration.ofHours(2));
        assertEquals(200, platform.patch("/api/v1/issues/" + early, key, "{\"status\":\"solved\"}").status());
        sql(platform, "UPDATE issues.tickets SET closed_at = :at WHERE id = :id", early, monday(2).plus(Duration.ofHours(1)));
        // This week: the customer's own comment through the API and an internal note do not count; a reply does.
        UUID parcel = ticket(platform, key, "Parcel lost");
        platform.post("/api/v1/issues/" + parcel + "/comments", key, "{\"body\":\"Any news?\"}");
        reply(member, parcel, "body", "Checking with the carrier.", "internal", "on");
        reply(member, parcel, "body", "The carrier is looking for it.");
        Instant parcelOpened = now.minusSeconds(30);
        sql(platform, "UPDATE issues.tickets SET created_at = :at WHERE id = :id", parcel, parcelOpened);
        sql(platform, "UPDATE issues.comments SET created_at = :at + (CASE WHEN internal THEN interval '10 minutes'"
                + " WHEN author_type = 'user' THEN interval '4 hours' ELSE interval '1 minute' END)"
                + " WHERE ticket_id = :id", parcel, parcelOpened);
        UUID waiting = ticket(platform, key, "No answer yet");
        // Opened twenty weeks ago: outside the twelve weeks, its quick reply is not in the median.
        UUID old = ticket(platform, key, "Old question");
        reply(member, old, "body", "Answered at once.");
        backdate(platform, old, monday(20), Duration.ofMinutes(1));
        UUID other = platform.createWorkspace("support-home-other");
        String otherKey = platform.key(other, "issues.read", "issues.write");
        UUID theirs = ticket(platform, otherKey, "Someone else's");
        platform.patch("/api/v1/issues/" + theirs, otherKey, "{\"status\":\"closed\"}");

        String home = member.get("/app/support").body();
        assertTrue(home.contains("<h1>Support</h1>"), home);
        assertTrue(home.contains("<a href=\"/app/support\" aria-current=\"page\">Overview</a>"), home);
        assertTrue(home.contains(">3 h</dd>"), "the median of 2 h and 4 h: " + home);
        assertTrue(home.contains("over the 3 tickets opened in the last 12 weeks; 1 not answered yet is left out."),
                home);
        String openList = "/app/support/tickets?status=new&amp;status=open&amp;status=pending&amp;status=on_hold";
        assertTrue(home.contains("<a href=\"" + openList + "\">3</a>"), "parcel, waiting and old are open: " + home);
        assertTrue(row(home, MONDAY).matches("(?s).*>2<.*>0<.*"), "this week: 2 opened, none closed: "
                + row(home, MONDAY));
        assertTrue(row(home, MONDAY.minusWeeks(3)).matches("(?s).*>1<.*>0<.*"), row(home, MONDAY.minusWeeks(3)));
        assertTrue(row(home, MONDAY.minusWeeks(2)).matches("(?s).*>0<.*>1<.*"), row(home, MONDAY.minusWeeks(2)));

        String open = member.get(openList.replace("&amp;", "&")).body();
        assertTrue(open.contains("Parcel lost") && open.contains("No answer yet") && open.contains("Old question"), open);
        assertFalse(open.contains("Invoice wrong") || open.contains("Someone else"), open);
        assertFalse(waiting.equals(theirs));
    }

    @Test
    void anEmptyWorkspaceSaysThereIsNoDataYet(TestPlatform platform) {
        UUID ws = platform.createWorkspace("support-home-empty");
        var home = platform.person(ws, "member").get("/app/support");
        assertEquals(200, home.status());
        assertTrue(home.body().contains("No ticket was opened or closed in the last 12 weeks."), home.body());
        assertTrue(home.body().contains("No ticket was opened in the last 12 weeks."), home.body());
        assertTrue(home.body().contains(">—</dd>"), "no median without a reply");
    }

    @Test
    void aWaitIsSaidInUnitsPeopleUse() {
        assertEquals("under a minute", SupportHome.duration(Duration.ofSeconds(30)));
        assertEquals("45 min", SupportHome.duration(Duration.ofMinutes(45)));
        assertEquals("2 h 15 min", SupportHome.duration(Duration.ofMinutes(135)));
        assertEquals("3 d 4 h", SupportHome.duration(Duration.ofHours(76)));
    }

    private static Instant monday(int weeksAgo) {
        return MONDAY.minusWeeks(weeksAgo).atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    private static String row(String html, LocalDate week) {
        String label = "<th scope=\"row\">" + SupportHome.WEEK.format(week) + "</th>";
        int at = html.indexOf(label);
        assertTrue(at >= 0, "no row for " + label);
        return html.substring(at, html.indexOf("</tr>", at));
    }

    private static UUID ticket(TestPlatform platform, String key, String title) {
        var created = platform.post("/api/v1/issues", key, "{\"kind\":\"ticket\",\"title\":\"" + title + "\"}");
        assertEquals(201, created.status(), created.body());
        return UUID.fromString(created.data().path("id").asText());
    }

    private static void reply(TestPerson member, UUID ticket, String... fields) {
        assertEquals(303, member.post("/app/support/tickets/" + ticket + "/reply", fields).status());
    }

    /** The ticket opened at {@code opened}, and its comments {@code after} that. */
    private static void backdate(TestPlatform platform, UUID ticket, Instant opened, Duration after) {
        sql(platform, "UPDATE issues.tickets SET created_at = :at WHERE id = :id", ticket, opened);
        sql(platform, "UPDATE issues.comments SET created_at = :at WHERE ticket_id = :id", ticket,
                opened.plus(after));
    }

    private static void sql(TestPlatform platform, String sql, UUID id, Instant at) {
        platform.jdbi().useHandle(h -> h.createUpdate(sql).bind("id", id)
                .bind("at", OffsetDateTime.ofInstant(at.truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC)).execute());
    }
}
