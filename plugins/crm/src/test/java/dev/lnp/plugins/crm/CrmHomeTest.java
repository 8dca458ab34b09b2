package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The CRM's home over HTTP: its numbers for known deals, the lists they lead to, and an empty workspace. */
@PlatformTest(plugins = "crm")
class CrmHomeTest {

    private static final LocalDate MONTH = LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1);

    @Test
    void pipelineCloseMonthsAndClosedDealsAreCountedForThisWorkspaceOnly(TestPlatform platform) {
        UUID ws = platform.createWorkspace("crm-home");
        String key = platform.key(ws, "deals.read", "deals.write");
        deal(platform, key, "Discovery call", "discovery", "open", 1000, MONTH.plusMonths(1), null);
        deal(platform, key, "Paused proposal", "proposal", "on_hold", 2500, null, null);
        deal(platform, key, "Late proposal", "proposal", "open", 500, MONTH.minusMonths(2), null);
        deal(platform, key, "Won this month", "closed_won", "closed_won", 9999, null, MONTH);
        deal(platform, key, "Lost in spring", "closed_lost", "closed_lost", 10, null, MONTH.minusMonths(2));
        deal(platform, key, "Won long ago", "closed_won", "closed_won", 10, null, MONTH.minusMonths(13));
        UUID other = platform.createWorkspace("crm-home-other");
        deal(platform, platform.key(other, "deals.write"), "Someone else's", "proposal", "open", 7777,
                MONTH, MONTH);
        TestPerson member = platform.person(ws, "member");

        String home = member.get("/app/crm").body();
        assertTrue(home.contains("<h1>CRM</h1>"), home);
        assertTrue(home.contains("<a href=\"/app/crm\" aria-current=\"page\">Overview</a>"), "the home is current");
        assertTrue(member.get("/app/crm/deals").body().contains("<a href=\"/app/crm\">Overview</a>"),
                "on a list under it, the home is not the current entry");
        assertTrue(home.contains("<a href=\"/app/crm/deals?status=open&amp;status=on_hold\">4,000</a>"),
                "the open pipeline: 1,000 + 2,500 + 500, not another workspace's 7,777: " + home);
        assertTrue(home.contains("3 deals open or on hold"), home);
        assertTrue(home.contains("href=\"/app/crm/deals?stage=proposal\">3,000<"), "proposal: 2,500 + 500");
        assertTrue(home.contains("href=\"/app/crm/deals?stage=discovery\">1,000<"), home);
        assertTrue(home.contains("href=\"/app/crm/deals?stage=negotiation\">0<"), "a stage without deals is 0");
        assertFalse(home.contains("7,777"), "another workspace's deal is never counted");
        assertTrue(row(home, "Overdue").contains(">500<"), "expected before this month");
        assertTrue(row(home, "No date").contains(">2,500<"), home);
        assertTrue(row(home, CrmHome.MONTH.format(MONTH.plusMonths(1))).contains(">1,000<"), home);
        String thisMonth = row(home, CrmHome.MONTH.format(MONTH), 2);
        assertTrue(thisMonth.matches("(?s).*>1<.*>0<.*"), "won 1, lost 0 this month: " + thisMonth);
        assertTrue(home.contains("of 2 closed, 50 % won"), "the deal won 13 months ago is outside the year");

        String proposals = member.get("/app/crm/deals?stage=proposal").body();
        assertTrue(proposals.contains("Paused proposal") && proposals.contains("Late proposal"), proposals);
        assertFalse(proposals.contains("Discovery call") || proposals.contains("Someone else"), proposals);
    }

    /**
     * The figures the home reads are kept as deals change (V14): after every kind of change, through the API and in
     * SQL behind its back, they equal a count of the deals themselves.
     */
    @Test
    void theKeptFiguresAlwaysEqualACountOfTheDeals(TestPlatform platform) {
        UUID ws = platform.createWorkspace("crm-home-kept");
        String key = platform.key(ws, "deals.read", "deals.write");
        String moved = id(platform.post("/api/v1/crm/deals", key, "{\"title\":\"A\",\"value\":100}"));
        String won = id(platform.post("/api/v1/crm/deals", key,
                "{\"title\":\"B\",\"value\":200,\"expected_close_date\":\"" + MONTH + "\"}"));
        String gone = id(platform.post("/api/v1/crm/deals", key, "{\"title\":\"C\"}"));
        assertKept(platform, ws);
        assertEquals(200, platform.patch("/api/v1/crm/deals/" + moved, key,
                "{\"stage\":\"proposal\",\"value\":150,\"expected_close_date\":\"" + MONTH.plusMonths(2) + "\"}").status());
        assertEquals(200, platform.patch("/api/v1/crm/deals/" + won, key, "{\"stage\":\"closed_won\"}").status());
        assertEquals(200, platform.patch("/api/v1/crm/deals/" + won, key, "{\"description\":\"signed\"}").status());
        assertEquals(200, platform.patch("/api/v1/crm/deals/" + moved, key, "{\"value\":null}").status());
        assertKept(platform, ws);
        assertEquals(200, platform.delete("/api/v1/crm/deals/" + gone, key).status());
        // A closed deal without a close date counts in the month it last changed: moved back in time by hand.
        platform.jdbi().useHandle(h -> h.execute("UPDATE crm.deals SET updated_at = updated_at - interval '3 months'"
                + " WHERE id = ?::uuid", won));
        assertKept(platform, ws);
        String home = platform.person(ws, "member").get("/app/crm").body();
        assertTrue(row(home, CrmHome.MONTH.format(MONTH.minusMonths(3))).matches("(?s).*>1<.*>0<.*"), home);
    }

    private static void assertKept(TestPlatform platform, UUID ws) {
        String kept = """
                SELECT status, stage, month, sum(deals) AS deals, sum(value) AS value FROM crm.deal_figures
                 WHERE workspace_id = :ws GROUP BY 1, 2, 3 HAVING sum(deals) <> 0 OR sum(value) <> 0 ORDER BY 1, 2, 3""";
        String counted = """
                SELECT status, stage, crm.deal_figures_month(status, expected_close_date, actual_close_date, updated_at)
                       AS month, count(*) AS deals, coalesce(sum(value), 0) AS value FROM crm.deals
                 WHERE workspace_id = :ws GROUP BY 1, 2, 3 ORDER BY 1, 2, 3""";
        platform.jdbi().useHandle(h -> assertEquals(
                h.createQuery(counted).bind("ws", ws).mapToMap().list().toString(),
                h.createQuery(kept).bind("ws", ws).mapToMap().list().toString()));
    }

    private static String id(dev.lnp.testkit.TestResponse created) {
        assertEquals(201, created.status(), created.body());
        return created.data().path("id").asText();
    }

    @Test
    void anEmptyWorkspaceSaysThereIsNoDataYet(TestPlatform platform) {
        UUID ws = platform.createWorkspace("crm-home-empty");
        var home = platform.person(ws, "member").get("/app/crm");
        assertEquals(200, home.status());
        assertTrue(home.body().contains("No open deal has a value yet."), home.body());
        assertTrue(home.body().contains("No deal was won or lost in the last 12 months."), home.body());
        assertTrue(home.body().contains("No deal closed yet."), home.body());
        assertFalse(home.body().contains("<svg class=\"chart-picture\""), "no empty picture is drawn");
    }

    @Test
    void theStartPageLeadsToTheHome(TestPlatform platform) {
        UUID ws = platform.createWorkspace("crm-home-start");
        var start = platform.person(ws, "member").get("/app");
        assertEquals("/app/crm", start.location(), "the CRM's first navigation entry is its home");
    }

    private static String row(String html, String label) {
        return row(html, label, 1);
    }

    /** The table row of {@code label} in the {@code nth} chart table that has one. */
    private static String row(String html, String label, int nth) {
        int at = -1;
        for (int i = 0; i < nth; i++) {
            at = html.indexOf("<th scope=\"row\">" + label + "</th>", at + 1);
            assertTrue(at >= 0, "no row " + label + " (" + (i + 1) + ")");
        }
        return html.substring(at, html.indexOf("</tr>", at));
    }

    private static void deal(TestPlatform platform, String key, String title, String stage, String status, int value,
            LocalDate expectedClose, LocalDate closed) {
        String body = "{\"title\":\"" + title + "\",\"stage\":\"" + stage + "\",\"status\":\"" + status
                + "\",\"value\":" + value + ",\"currency\":\"EUR\""
                + (expectedClose == null ? "" : ",\"expected_close_date\":\"" + expectedClose + "\"")
                + (closed == null ? "" : ",\"actual_close_date\":\"" + closed + "\"") + "}";
        var created = platform.post("/api/v1/crm/deals", key, body);
        assertEquals(201, created.status(), created.body());
    }
}
