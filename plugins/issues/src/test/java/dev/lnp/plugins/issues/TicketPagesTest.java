package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Support in the workspace application, over HTTP as a signed-in member, checked against what the API answers. */
@PlatformTest(plugins = {"projects", "issues"})
class TicketPagesTest {

    @Test
    void theInboxFiltersByTheApisDeclarationsAndMineAndKeepsThemInTheAddress(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "support-inbox");
        TestPerson member = platform.person(f.ws(), "member");
        UUID me = userId(platform, f.ws(), member);
        UUID colleague = f.user();
        f.issue("{\"kind\":\"ticket\",\"title\":\"Printer on fire\",\"priority\":\"urgent\",\"assignee_id\":\"" + me + "\"}");
        f.issue("{\"kind\":\"ticket\",\"title\":\"Password reset\",\"status\":\"open\"}");
        f.issue("{\"kind\":\"ticket\",\"title\":\"Invoice copy\",\"status\":\"pending\",\"priority\":\"low\","
                + "\"assignee_id\":\"" + colleague + "\",\"description\":\"for the March order\"}");
        f.task("Not a ticket");

        String all = member.get("/app/support/tickets").body();
        assertEquals(List.of("Invoice copy", "Password reset", "Printer on fire"), titles(all), "newest first");
        assertFalse(all.contains("Not a ticket"), "tasks are not tickets");
        assertEquals(List.of("Password reset"), titles(member.get("/app/support/tickets?status=open").body()));
        assertEquals(List.of("Invoice copy", "Printer on fire"),
                titles(member.get("/app/support/tickets?priority=urgent&priority=low").body()));
        assertEquals(List.of("Printer on fire"), titles(member.get("/app/support/tickets?mine=1").body()));
        assertEquals(List.of("Password reset"), titles(member.get("/app/support/tickets?unassigned=true").body()));
        assertEquals(List.of("Invoice copy", "Printer on fire"),
                titles(member.get("/app/support/tickets?unassigned=false").body()));
        assertEquals(List.of("Invoice copy"), titles(member.get("/app/support/tickets?assignee=" + colleague).body()));
        assertEquals(List.of("Invoice copy"), titles(member.get("/app/support/tickets?search=march").body()));
        assertEquals(List.of("Invoice copy", "Password reset", "Printer on fire"),
                titles(member.get("/app/support/tickets?sort=title").body()));
        assertEquals(List.of("Printer on fire", "Invoice copy", "Password reset"),
                titles(member.get("/app/support/tickets?sort=priority").body()), "urgent first, none last");

        // Pages read one row ahead; the next page's link keeps the filters.
        String first = member.get("/app/support/tickets?sort=title&limit=2").body();
        assertEquals(List.of("Invoice copy", "Password reset"), titles(first));
        assertTrue(first.contains("rel=\"next\""), first);
        assertTrue(first.contains("sort=title") && first.contains("page=2"), "the link keeps the order: " + first);
        String second = member.get("/app/support/tickets?sort=title&limit=2&page=2").body();
        assertEquals(List.of("Printer on fire"), titles(second));
        assertFalse(second.contains("rel=\"next\""));

        // A bad value of a declared filter is a readable 400 page, as the API's 400.
        var badPriority = member.get("/app/support/tickets?priority=extreme");
        assertEquals(400, badPriority.status(), badPriority.body());
        assertTrue(badPriority.body().contains("extreme is not one of none, low, medium, high, urgent"),
                badPriority.body());
        assertEquals(400, member.get("/app/support/tickets?assignee=bob").status());
        assertEquals(400, member.get("/app/support/tickets?unassigned=yes").status());

        // The same filters through the API.
        assertEquals(1, total(platform.get("/api/v1/issues?kind=ticket&unassigned=true", f.key())));
        assertEquals(2, total(platform.get("/api/v1/issues?kind=ticket&unassigned=false", f.key())));
        assertEquals(2, total(platform.get("/api/v1/issues?kind=ticket&priority=urgent&priority=low", f.key())));
        assertEquals(0, total(platform.get("/api/v1/issues?kind=ticket&unassigned=true&assignee=" + me, f.key())),
                "different filters must all match");
        assertEquals("?priority", Fixtures.pointer(platform.get("/api/v1/issues?kind=ticket&priority=extreme", f.key())));
        assertEquals("?unassigned", Fixtures.pointer(platform.get("/api/v1/issues?unassigned=maybe", f.key())));
        var tool = platform.callTool(f.key(), "issues_list", "{\"kind\":\"ticket\",\"unassigned\":true}");
        JsonNode listed = dev.lnp.api.Json.mapper().valueToTree(tool.data());
        assertEquals(1, listed.path("items").size(), listed.toString());
    }

    @Test
    void aTicketIsAnsweredNotedAssignedAndChangedThroughTheApisRules(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "support-ticket");
        TestPerson member = platform.person(f.ws(), "member");
        UUID me = userId(platform, f.ws(), member);
        UUID ticket = f.issue("{\"kind\":\"ticket\",\"title\":\"Parcel lost\",\"description\":\"Order 1234 never came\"}");
        String page = "/app/support/tickets/" + ticket;
        assertEquals(201, platform.post("/api/v1/issues/" + ticket + "/comments", f.key(),
                "{\"body\":\"Where is my parcel?\"}").status());

        var replied = member.post(page + "/reply", "body", "We are asking the carrier.");
        assertEquals(303, replied.status(), replied.body());
        assertTrue(member.get(replied.location()).body().contains("Reply added to the conversation."));
        var noted = member.post(page + "/reply", "body", "Carrier confirms loss; refund.", "internal", "on");
        assertEquals(303, noted.status(), noted.body());
        assertTrue(member.get(noted.location()).body().contains("Internal note added."));
        assertEquals(400, member.post(page + "/reply", "body", "").status(), "a reply needs a message");

        String shown = member.get(page).body();
        assertTrue(shown.contains("<h1>Parcel lost</h1>") && shown.contains("Order 1234 never came"), shown);
        int question = shown.indexOf("Where is my parcel?");
        int reply = shown.indexOf("We are asking the carrier.");
        int note = shown.indexOf("Carrier confirms loss; refund.");
        assertTrue(question > 0 && question < reply && reply < note, "the conversation in order: " + shown);
        assertTrue(shown.contains("<td>Internal note</td>") && shown.contains("<td>Public</td>")
                        && shown.contains("<td>API connection</td>") && shown.contains("<td>You</td>"),
                "each message says who wrote it and who may read it: " + shown);
        assertTrue(shown.contains("<dt>Opened by</dt><dd>API connection</dd>"), "a key opened it: " + shown);

        // Through the API, callers with the scope read the note as such, authored by the member.
        JsonNode comments = platform.get("/api/v1/issues/" + ticket + "/comments", f.key()).json().get("data");
        assertEquals(3, comments.size(), comments.toString());
        assertFalse(comments.get(1).get("internal").asBoolean());
        assertTrue(comments.get(2).get("internal").asBoolean());
        assertEquals(me.toString(), comments.get(2).get("author_id").asText());
        assertEquals("user", comments.get(2).get("author_type").asText());

        // Assignment: to me, to nobody, to a colleague through the form; each is the API's update and its event.
        long updatesBefore = events(platform, f.ws(), "issues.ticket.updated");
        var assigned = member.post(page + "/assign-to-me");
        assertEquals(303, assigned.status(), assigned.body());
        assertTrue(member.get(assigned.location()).body().contains("Ticket Parcel lost: assigned to you."));
        assertEquals(me.toString(), f.get(ticket).get("assignee_id").asText());
        assertEquals(303, member.post(page + "/unassign").status());
        assertTrue(f.get(ticket).get("assignee_id").isNull());
        UUID colleague = f.user();
        var changed = member.post(page + "/edit", "status", "pending", "priority", "high",
                "assignee_id", colleague.toString());
        assertEquals(303, changed.status(), changed.body());
        assertTrue(member.get(changed.location()).body()
                .contains("Ticket Parcel lost: status Pending, priority High, assigned to " + email(platform, colleague)
                        + "."));
        JsonNode after = f.get(ticket);
        assertEquals("pending", after.get("status").asText());
        assertEquals("high", after.get("priority").asText());
        assertEquals(colleague.toString(), after.get("assignee_id").asText());
        assertEquals(updatesBefore + 3, events(platform, f.ws(), "issues.ticket.updated"), "one event per change");
        assertEquals(List.of("issues.ticket_changed", "issues.ticket_changed", "issues.ticket_changed",
                        "issues.ticket_noted", "issues.ticket_replied"), activity(platform, f.ws()),
                "each change is in the workspace's activity, newest first");
        var unchanged = member.post(page + "/edit", "status", "pending", "priority", "high",
                "assignee_id", colleague.toString());
        assertTrue(member.get(unchanged.location()).body().contains("Nothing was changed."));

        // Refused changes are said in words, next to their field, and change nothing.
        var taskStatus = member.post(page + "/edit", "status", "done", "priority", "high");
        assertEquals(400, taskStatus.status());
        assertTrue(taskStatus.body().contains("Status: Choose one of the options."), "a task's status: "
                + taskStatus.body());
        UUID stranger = Fixtures.workspace(platform, "support-elsewhere").user();
        var foreign = member.post(page + "/edit", "status", "pending", "priority", "high",
                "assignee_id", stranger.toString());
        assertEquals(422, foreign.status(), foreign.body());
        assertTrue(foreign.body().contains("assignee_id does not name a user of this workspace"), foreign.body());
        assertEquals(colleague.toString(), f.get(ticket).get("assignee_id").asText(), "nothing changed");
        assertEquals("pending", f.get(ticket).get("status").asText());
    }

    @Test
    void aNewTicketIsCreatedAndOtherWorkspacesTicketsAndTasksAreMissing(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "support-new");
        TestPerson member = platform.person(f.ws(), "member");
        var created = member.post("/app/support/tickets/new", "title", "Broken link on the pricing page",
                "priority", "medium", "status", "new");
        assertEquals(303, created.status(), created.body());
        String shown = member.get(created.location()).body();
        assertTrue(shown.contains("Ticket Broken link on the pricing page created."), shown);
        assertTrue(shown.contains("<dt>Opened by</dt><dd>You</dd>"), shown);
        JsonNode tickets = platform.get("/api/v1/issues?kind=ticket", f.key()).json().get("data");
        assertEquals("medium", tickets.get(0).get("priority").asText());
        var untitled = member.post("/app/support/tickets/new", "title", "", "priority", "none", "status", "new");
        assertEquals(400, untitled.status(), "a title is required");
        assertTrue(untitled.body().contains("<form"), "the form again: " + untitled.body());
        var taskStatus = member.post("/app/support/tickets/new", "title", "x", "status", "backlog");
        assertEquals(400, taskStatus.status(), "a task's status is not a ticket's");

        UUID ticket = UUID.fromString(tickets.get(0).get("id").asText());
        UUID task = f.task("A task");
        assertEquals(404, member.get("/app/support/tickets/" + task).status(), "a task is not a ticket");
        assertEquals(404, member.post("/app/support/tickets/" + task + "/reply", "body", "hi").status());
        assertEquals(404, member.get("/app/support/tickets/not-an-id").status());
        TestPerson outsider = platform.person(platform.createWorkspace("support-outsider"), "member");
        for (String path : List.of("", "/reply", "/edit")) {
            assertEquals(404, outsider.get("/app/support/tickets/" + ticket + path).status(), path);
        }
        assertEquals(404, outsider.post("/app/support/tickets/" + ticket + "/reply", "body", "hi").status());
        assertEquals(404, outsider.post("/app/support/tickets/" + ticket + "/assign-to-me").status());
        assertEquals(404, outsider.post("/app/support/tickets/" + ticket + "/edit", "status", "closed",
                "priority", "none").status());
        assertEquals(0, platform.get("/api/v1/issues/" + ticket + "/comments", f.key()).json().get("data").size());
        assertEquals("new", f.get(ticket).get("status").asText(), "another workspace changed nothing");
    }

    @Test
    void peopleAreNamedAndAssigneesAreAChoiceOfThisWorkspacesMembers(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "support-people");
        TestPerson member = platform.person(f.ws(), "member");
        UUID me = userId(platform, f.ws(), member);
        UUID colleague = f.user();
        named(platform, colleague, "Bea Keller");
        UUID stranger = Fixtures.workspace(platform, "support-people-elsewhere").user();
        named(platform, stranger, "Zed Outsider");
        UUID ticket = f.issue("{\"kind\":\"ticket\",\"title\":\"Refund please\",\"assignee_id\":\"" + colleague + "\"}");
        assertEquals(303, member.post("/app/support/tickets/" + ticket + "/reply", "body", "On it.").status());

        String page = member.get("/app/support/tickets/" + ticket).body();
        assertTrue(page.contains("<dt>Assignee</dt><dd>Bea Keller</dd>"), page);
        assertTrue(page.contains("<td>You</td>"), "my reply is mine: " + page);
        assertFalse(page.contains("Member "), "nobody is a bare id: " + page);
        assertTrue(member.get("/app/support/tickets").body().contains("<td>Bea Keller</td>"), "the inbox names them");

        for (String form : List.of("/app/support/tickets/" + ticket + "/edit", "/app/support/tickets/new")) {
            String html = member.get(form).body();
            int nobody = html.indexOf("<option value=\"\"");
            int mine = html.indexOf("<option value=\"" + me + "\"");
            int theirs = html.indexOf("<option value=\"" + colleague + "\"");
            assertTrue(nobody > 0 && nobody < mine && mine < theirs, "nobody, me, then the others: " + html);
            assertTrue(html.contains(">Me (" + member.email() + ")</option>"), html);
            assertTrue(html.contains(">Bea Keller (" + email(platform, colleague) + ")</option>"), html);
            assertFalse(html.contains("Zed Outsider") || html.contains(stranger.toString()),
                    "another workspace's people are not offered: " + html);
        }
        assertTrue(member.get("/app/support/tickets/" + ticket + "/edit").body()
                .contains("<option value=\"" + colleague + "\" selected>"), "the assignee is chosen");

        // A value that is none of the choices (an old form, a forged post) is refused as the API refuses it, in
        // words next to the field, and shown as what was sent.
        var foreign = member.post("/app/support/tickets/" + ticket + "/edit", "status", "new", "priority", "none",
                "assignee_id", stranger.toString());
        assertEquals(422, foreign.status(), foreign.body());
        assertTrue(foreign.body().contains("assignee_id does not name a user of this workspace"), foreign.body());
        assertTrue(foreign.body().contains(stranger + " (not one of the choices)</option>"), foreign.body());
        var unknown = member.post("/app/support/tickets/new", "title", "Someone", "status", "new",
                "assignee_id", "not-an-id");
        assertEquals(400, unknown.status(), unknown.body());
        assertTrue(unknown.body().contains("Assignee: Enter an id like"), unknown.body());
        assertEquals(colleague.toString(), f.get(ticket).get("assignee_id").asText(), "nothing changed");
    }

    @Test
    void aReplyIsWrittenOnTheTicketsPageAndARefusalKeepsTheText(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "support-inline");
        TestPerson member = platform.person(f.ws(), "member");
        UUID ticket = f.issue("{\"kind\":\"ticket\",\"title\":\"Late delivery\"}");
        String page = "/app/support/tickets/" + ticket;
        String html = member.get(page).body();
        assertTrue(html.contains("<form method=\"post\" action=\"" + page + "/reply\""), html);
        assertTrue(html.contains("name=\"csrf\"") && html.contains("id=\"form1-body\"")
                && html.contains("id=\"form1-internal\""), "a message and the internal note's box: " + html);

        String tooLong = "We are on it. ".repeat(1500);          // over the API's 20000 characters
        var refused = member.post(page + "/reply", "body", tooLong, "internal", "on", "_shown_on", page);
        assertEquals(400, refused.status(), refused.body());
        assertTrue(refused.body().contains("<h1>Late delivery</h1>"), "the ticket's page again: " + refused.body());
        assertTrue(refused.body().contains("Message: Write at most 20000 characters."), refused.body());
        assertTrue(refused.body().contains(tooLong.strip()), "what was typed is kept");
        assertTrue(refused.body().contains("id=\"form1-internal\" name=\"internal\" checked"), "and the box ticked");
        var empty = member.post(page + "/reply", "body", "", "_shown_on", page);
        assertEquals(400, empty.status());
        assertTrue(empty.body().contains("<h1>Late delivery</h1>") && empty.body().contains("Fill in Message."),
                empty.body());
        assertEquals(0, platform.get("/api/v1/issues/" + ticket + "/comments", f.key()).json().get("data").size());

        // Sent from its own page (an old bookmark), or naming a page that has no such form, the form's page answers.
        var fromOwnPage = member.post(page + "/reply", "body", "");
        assertTrue(fromOwnPage.body().contains("<h1>Reply to Late delivery</h1>"), fromOwnPage.body());
        var elsewhere = member.post(page + "/reply", "body", "", "_shown_on", "/app/support/tickets");
        assertTrue(elsewhere.body().contains("<h1>Reply to Late delivery</h1>"), elsewhere.body());
        assertTrue(member.get(page + "/reply").body().contains("<h1>Reply to Late delivery</h1>"));

        var sent = member.post(page + "/reply", "body", "It ships today.", "_shown_on", page);
        assertEquals(303, sent.status(), sent.body());
        assertTrue(member.get(sent.location()).body().contains("<td>It ships today.</td>"));
    }

    private static void named(TestPlatform platform, UUID user, String name) {
        platform.jdbi().useHandle(h -> h.createUpdate("UPDATE lnp_core.users SET display_name = :n WHERE id = :id")
                .bind("n", name).bind("id", user).execute());
    }

    private static String email(TestPlatform platform, UUID user) {
        return platform.jdbi().withHandle(h -> h.createQuery("SELECT email FROM lnp_core.users WHERE id = :id")
                .bind("id", user).mapTo(String.class).one());
    }

    /** The linked titles of a list page, in order. */
    private static List<String> titles(String html) {
        List<String> titles = new ArrayList<>();
        var links = java.util.regex.Pattern.compile("<a href=\"/app/support/tickets/[0-9a-f-]{36}\">([^<]+)</a>")
                .matcher(html);
        while (links.find()) titles.add(links.group(1));
        return titles;
    }

    private static int total(dev.lnp.testkit.TestResponse response) {
        assertEquals(200, response.status(), response.body());
        return response.json().get("pagination").get("total").asInt();
    }

    private static UUID userId(TestPlatform platform, UUID ws, TestPerson person) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT id FROM lnp_core.users WHERE workspace_id = :ws AND lower(email) = lower(:email)")
                .bind("ws", ws).bind("email", person.email()).mapTo(UUID.class).one());
    }

    private static long events(TestPlatform platform, UUID ws, String name) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT count(*) FROM lnp_core.outbox WHERE workspace_id = :ws AND event_name = :name")
                .bind("ws", ws).bind("name", name).mapTo(Long.class).one());
    }

    private static List<String> activity(TestPlatform platform, UUID ws) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT action FROM lnp_core.console_activity WHERE workspace_id = :ws ORDER BY id DESC")
                .bind("ws", ws).mapTo(String.class).list());
    }
}
