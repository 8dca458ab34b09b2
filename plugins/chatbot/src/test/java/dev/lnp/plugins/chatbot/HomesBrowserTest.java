package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.Browser;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * Each module's home in real headless Chromium over a workspace with some history: the charts drawn, their
 * numbers opened by keyboard and followed to their list, and axe-core finding nothing serious. The screenshots
 * (target/console-screenshots, or -Dlnp.console.screenshots=docs/app) are looked at.
 */
@PlatformTest(plugins = {"crm", "projects", "issues", "chatbot"})
class HomesBrowserTest {

    private static final LocalDate TODAY = LocalDate.now(ZoneOffset.UTC);
    private static final LocalDate MONDAY = TODAY.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));

    private static Browser chromium;
    private static WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
        chromium = Browser.start();
        browser = chromium.driver();
    }

    @AfterAll
    static void stop() {
        if (chromium != null) chromium.close();
    }

    @Test
    void everyHomeDrawsItsChartsAndLeadsToItsLists(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("Acme Robotics");
        String key = platform.fullAccessKey(ws);
        deals(platform, key);
        tickets(platform, key);
        cycle(platform, key);
        conversations(platform, ws);
        platform.person(ws, "member").signIn(chromium);
        String base = "http://localhost:" + platform.port();

        // The start page is the first heading's home; which heading is first is the plugins' load order.
        browser.get(base + "/app");
        chromium.waitFor(By.tagName("h1"));
        assertTrue(List.of(base + "/app/crm", base + "/app/projects", base + "/app/support")
                .contains(browser.getCurrentUrl()), browser.getCurrentUrl());

        browser.get(base + "/app/crm");
        chromium.waitFor(By.xpath("//h1[text()='CRM']"));
        assertEquals(3, browser.findElements(By.cssSelector("svg.chart-picture")).size());
        accessible("the CRM home");
        chromium.shoot("home-crm");
        // By keyboard: open the first chart's numbers, then follow the Proposal stage to its deals.
        WebElement numbers = browser.findElement(By.cssSelector("#chart-1 summary"));
        numbers.sendKeys(Keys.ENTER);
        WebElement proposal = browser.findElement(By.xpath(
                "//section[@id='chart-1']//tr[th='Proposal']//a"));
        assertTrue(proposal.isDisplayed(), "the numbers are shown once opened");
        accessible("the CRM home with its numbers open");
        chromium.shoot("home-crm-numbers");
        proposal.sendKeys(Keys.ENTER);
        chromium.waitFor(By.xpath("//h1[text()='Deals']"));
        assertTrue(browser.getCurrentUrl().endsWith("/app/crm/deals?stage=proposal"), browser.getCurrentUrl());

        browser.get(base + "/app/projects");
        chromium.waitFor(By.xpath("//h1[text()='Projects']"));
        assertEquals(2, browser.findElements(By.cssSelector("svg.chart-picture")).size(), "by status, burn-up");
        accessible("the Projects home");
        chromium.shoot("home-projects");

        browser.get(base + "/app/support");
        chromium.waitFor(By.xpath("//h1[text()='Support']"));
        assertTrue(browser.findElement(By.cssSelector(".figures")).getText().contains("Median first reply"));
        accessible("the Support home");
        chromium.shoot("home-support");

        browser.get(base + "/app/chat/overview");
        chromium.waitFor(By.xpath("//h1[text()='Chat']"));
        accessible("the chat home");
        chromium.shoot("home-chat");

        UUID empty = platform.createWorkspace("Fresh Start");
        platform.person(empty, "member").signIn(chromium);
        browser.get(base + "/app/crm");
        chromium.waitFor(By.xpath("//h1[text()='CRM']"));
        assertTrue(browser.getPageSource().contains("No deal was won or lost in the last 12 months."));
        accessible("an empty CRM home");
        chromium.shoot("home-crm-empty");
    }

    private static void accessible(String page) throws Exception {
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), page);
    }

    /** Open deals across the stages and close months, and a year of deals won and lost. */
    private static void deals(TestPlatform platform, String key) {
        String[] stages = {"discovery", "discovery", "qualified", "qualified", "qualified", "proposal", "proposal",
                "negotiation"};
        for (int i = 0; i < stages.length; i++) {
            deal(platform, key, "Robot arm " + (i + 1), stages[i], stages[i].equals("negotiation") ? "on_hold" : "open",
                    8_000 + 3_500 * i, i == 7 ? null : TODAY.withDayOfMonth(1).plusMonths(i % 5 - 1).plusDays(9), null);
        }
        for (int month = 0; month < 12; month++) {
            LocalDate closed = TODAY.withDayOfMonth(1).minusMonths(month).plusDays(4);
            for (int won = 0; won < 1 + (month * 7) % 4; won++) {
                deal(platform, key, "Won " + month + "-" + won, "closed_won", "closed_won", 12_000, null, closed);
            }
            for (int lost = 0; lost < (month * 5) % 3; lost++) {
                deal(platform, key, "Lost " + month + "-" + lost, "closed_lost", "closed_lost", 9_000, null, closed);
            }
        }
    }

    private static void deal(TestPlatform platform, String key, String title, String stage, String status, int value,
            LocalDate expectedClose, LocalDate closed) {
        var created = platform.post("/api/v1/crm/deals", key, "{\"title\":\"" + title + "\",\"stage\":\"" + stage
                + "\",\"status\":\"" + status + "\",\"value\":" + value + ",\"currency\":\"EUR\""
                + (expectedClose == null ? "" : ",\"expected_close_date\":\"" + expectedClose + "\"")
                + (closed == null ? "" : ",\"actual_close_date\":\"" + closed + "\"") + "}");
        assertEquals(201, created.status(), created.body());
    }

    /** Twelve weeks of tickets, most closed within days, each answered by a connection's comment turned member's. */
    private static void tickets(TestPlatform platform, String key) {
        for (int week = 0; week < 12; week++) {
            for (int t = 0; t < 2 + (week * 5) % 4; t++) {
                UUID id = created(platform.post("/api/v1/issues", key, "{\"kind\":\"ticket\",\"title\":\"Ticket "
                        + week + "-" + t + "\"}"));
                platform.post("/api/v1/issues/" + id + "/comments", key, "{\"body\":\"On it.\"}");
                OffsetDateTime opened = MONDAY.minusWeeks(week).atTime(9 + t, 0).atOffset(ZoneOffset.UTC);
                boolean closed = week > 0 && t % 3 != 2;
                int minutes = 20 + 35 * t;
                if (closed) platform.patch("/api/v1/issues/" + id, key, "{\"status\":\"solved\"}");
                sql(platform, h -> {
                    h.createUpdate("UPDATE issues.tickets SET created_at = :at, closed_at = CASE WHEN closed_at"
                                    + " IS NULL THEN NULL ELSE :at + interval '2 days' END WHERE id = :id")
                            .bind("at", opened).bind("id", id).execute();
                    // A member's reply, as the ticket page writes it.
                    h.createUpdate("UPDATE issues.comments SET author_type = 'user', created_at = :at"
                                    + " + make_interval(mins => :minutes) WHERE ticket_id = :id")
                            .bind("at", opened).bind("minutes", minutes).bind("id", id).execute();
                });
            }
        }
    }

    /** A fortnight's cycle begun a week ago: tasks added along the way, some done each day. */
    private static void cycle(TestPlatform platform, String key) {
        UUID project = created(platform.post("/api/v1/projects", key, "{\"name\":\"Gripper v2\"}"));
        LocalDate start = TODAY.minusDays(7);
        UUID cycle = created(platform.post("/api/v1/projects/" + project + "/cycles", key, "{\"name\":\"Sprint 12\","
                + "\"start_date\":\"" + start + "\",\"end_date\":\"" + start.plusDays(13) + "\"}"));
        String[] statuses = {"backlog", "todo", "todo", "in_progress", "in_progress", "in_review", "done", "done",
                "done", "done", "done", "todo", "done", "backlog"};
        for (int i = 0; i < statuses.length; i++) {
            UUID task = created(platform.post("/api/v1/issues", key, "{\"kind\":\"task\",\"title\":\"Task " + i
                    + "\",\"project_id\":\"" + project + "\",\"cycle_id\":\"" + cycle + "\",\"status\":\""
                    + statuses[i] + "\"}"));
            int day = i;
            sql(platform, h -> h.createUpdate("UPDATE issues.tasks SET created_at = :created,"
                            + " done_at = CASE WHEN done_at IS NULL THEN NULL ELSE :done END WHERE id = :id")
                    .bind("created", start.plusDays(Math.max(0, day - 7)).atTime(10, 0).atOffset(ZoneOffset.UTC))
                    .bind("done", start.plusDays(Math.min(7, day - 4)).atTime(16, 0).atOffset(ZoneOffset.UTC))
                    .bind("id", task).execute());
        }
    }

    /**
     * Twelve weeks of chat conversations, a few handed to a person, one waiting now: one through the widget's
     * handshake (which limits how many an address opens a minute), the others copies of it.
     */
    private void conversations(TestPlatform platform, UUID ws) {
        ChatClient chat = new ChatClient(platform);
        String key = chat.createWidget(ws, "").get("key").asText();
        UUID first = UUID.fromString(chat.session(key).get("session_id").asText());
        for (int week = 0; week < 12; week++) {
            for (int c = 0; c < 3 + (week * 3) % 5; c++) {
                OffsetDateTime began = MONDAY.minusWeeks(week).atTime(8 + c, 30).atOffset(ZoneOffset.UTC);
                String handoff = c % 3 == 1 ? (week == 0 ? "waiting" : "closed") : null;
                sql(platform, h -> {
                    UUID session = h.createQuery("INSERT INTO chatbot.sessions (workspace_id, widget_id, origin,"
                                    + " language, created_at, handoff_state, handed_off_at, handoff_reason,"
                                    + " last_visitor_at) SELECT workspace_id, widget_id, origin, language, :at, :state,"
                                    + " CASE WHEN :state IS NULL THEN NULL ELSE :at END, 'A person, please', :at"
                                    + " FROM chatbot.sessions WHERE id = :first RETURNING id")
                            .bind("at", began).bind("state", handoff).bind("first", first)
                            .mapTo(UUID.class).one();
                    h.createUpdate("INSERT INTO chatbot.messages (workspace_id, session_id, role, text)"
                                    + " SELECT workspace_id, id, 'visitor', 'Hello' FROM chatbot.sessions WHERE id = :id")
                            .bind("id", session).execute();
                });
            }
        }
    }

    private static UUID created(dev.lnp.testkit.TestResponse response) {
        assertEquals(201, response.status(), response.body());
        return UUID.fromString(response.data().path("id").asText());
    }

    private static void sql(TestPlatform platform, java.util.function.Consumer<Handle> work) {
        platform.jdbi().useHandle(work::accept);
    }
}
