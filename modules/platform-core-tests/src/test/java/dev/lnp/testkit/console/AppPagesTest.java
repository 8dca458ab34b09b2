package dev.lnp.testkit.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.console.ConsoleWebhooksTest.Person;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Pages a plugin contributes through the page API (the probe's, dev.lnp.api.pages) over real HTTP and PostgreSQL:
 * lists with filters, sort and pages kept in the address, detail pages, forms checked against the schema with each
 * error next to its field, a board whose refused move reads as a message, and every refusal (sign-in, role,
 * scope, CSRF, another workspace's id, a malformed id, the module switched off).
 */
@PlatformTest(plugins = "probe")
class AppPagesTest {

    static final String ITEMS = "/app/probe/items";

    static String item(TestPlatform platform, UUID workspace, String title, String kind) {
        return platform.jdbi().withHandle(h -> h.createQuery("""
                        INSERT INTO probe.desk_items (workspace_id, title, kind, tags) VALUES (:ws, :t, :k, '{}')
                        RETURNING id
                        """)
                .bind("ws", workspace).bind("t", title).bind("k", kind).mapTo(String.class).one());
    }

    @Test
    void theSearchAsksTheModulesSourceShowsAFewHitsAndItsRefusalsInWords(TestPlatform platform) {
        UUID ws = platform.createWorkspace("search");
        for (int i = 1; i <= 7; i++) {
            item(platform, ws, "Gamma " + i, "a");
        }
        Person member = ConsoleWebhooksTest.signIn(platform, ws, "member");

        var found = member.client().get("/app/search?q=gamma");
        assertEquals(200, found.status(), found.body());
        assertTrue(found.body().contains("<h2 id=\"found-probe-items\">Probe items</h2>"), found.body());
        assertTrue(found.body().contains(">Gamma 5</a>") && !found.body().contains(">Gamma 6</a>"),
                "at most five of a kind, even when the source answers more: " + found.body());
        assertTrue(found.body().contains("kind a"), "each hit's line");

        var refused = member.client().get("/app/search?q=refuse");
        assertEquals(400, refused.status());
        assertTrue(refused.body().contains("The probe refuses this."), refused.body());
        var broken = member.client().get("/app/search?q=break");
        assertEquals(500, broken.status());
        assertTrue(broken.body().contains("Something went wrong") && broken.body().contains("href=\"/app\""),
                broken.body());

        Person owner = ConsoleWebhooksTest.signIn(platform, ws, "owner");
        String csrf = owner.csrf("/console/modules");
        owner.postWith("/console/modules/probe", csrf, "enabled", "false", "confirm", "yes");
        assertTrue(member.client().get("/app/search?q=gamma").body()
                .contains("No module of this workspace offers search to your role."), "a module switched off is not asked");
    }

    @Test
    void aMemberListsFiltersSortsAndPagesItemsWithAddressesThatKeepThem(TestPlatform platform) {
        UUID ws = platform.createWorkspace("lists");
        for (int i = 1; i <= 4; i++) {
            item(platform, ws, "Alpha " + i, i % 2 == 0 ? "b" : "a");
        }
        item(platform, ws, "Beta", "a");
        Person member = ConsoleWebhooksTest.signIn(platform, ws, "member");

        var home = member.client().get("/app");
        assertEquals(303, home.status(), home.body());
        assertEquals(ITEMS, home.location(), "the start page is the first page of the navigation");

        var all = member.client().get(ITEMS);
        assertEquals(200, all.status(), all.body());
        String body = all.body();
        assertTrue(body.contains("<p class=\"section\">Probe</p>"), "the module's navigation group");
        assertTrue(body.contains("href=\"" + ITEMS + "\" aria-current=\"page\">Items</a>"), body);
        assertTrue(body.contains("<label for=\"filter-q\">Title contains</label>"), "a labelled search");
        assertTrue(body.contains("<select id=\"filter-kind\" name=\"kind\">"), "a labelled choice");
        assertTrue(body.contains("<a href=\"" + ITEMS + "?sort=title\">Title</a>"), "a sortable heading");
        assertFalse(body.contains("Console</a>"), "a member is not offered the administration");

        var filtered = member.client().get(ITEMS + "?q=alpha&kind=b&sort=-title");
        assertEquals(200, filtered.status());
        assertTrue(filtered.body().contains(">Alpha 4</a>") && filtered.body().contains(">Alpha 2</a>"));
        assertFalse(filtered.body().contains(">Alpha 1</a>") || filtered.body().contains(">Beta</a>"));
        assertTrue(filtered.body().indexOf(">Alpha 4</a>") < filtered.body().indexOf(">Alpha 2</a>"), "descending");
        assertTrue(filtered.body().contains("value=\"alpha\""), "the search is shown as asked");
        assertTrue(filtered.body().contains("<option value=\"b\" selected>Kind B</option>"), filtered.body());
        assertTrue(filtered.body().contains("aria-sort=\"descending\""));
        assertTrue(filtered.body().contains("<a href=\"" + ITEMS + "?kind=b&amp;q=alpha&amp;sort=title\">Title"),
                "sorting again keeps the filters: " + filtered.body());

        var first = member.client().get(ITEMS + "?sort=title&limit=2");
        assertTrue(first.body().contains(">Alpha 1</a>") && first.body().contains(">Alpha 2</a>"));
        assertTrue(first.body().contains("href=\"" + ITEMS + "?limit=2&amp;sort=title&amp;page=2\" rel=\"next\""),
                first.body());
        var second = member.client().get(ITEMS + "?sort=title&limit=2&page=2");
        assertTrue(second.body().contains(">Alpha 3</a>") && second.body().contains("rel=\"prev\""));

        var none = member.client().get(ITEMS + "?q=nothing-like-this");
        assertTrue(none.body().contains("No items match."));

        var badPage = member.client().get(ITEMS + "?page=zero");
        assertEquals(400, badPage.status());
        assertTrue(badPage.body().contains("page: give a whole number from 1"), badPage.body());
    }

    @Test
    void anItemsPageShowsItsFieldsAndOffersEditOnlyToThoseWhoMay(TestPlatform platform) {
        UUID ws = platform.createWorkspace("detail");
        String id = item(platform, ws, "Gamma <b>", "a");
        Person admin = ConsoleWebhooksTest.signIn(platform, ws, "admin");

        var page = admin.client().get(ITEMS + "/" + id);
        assertEquals(200, page.status(), page.body());
        assertTrue(page.body().contains("<h1>Gamma &lt;b&gt;</h1>"), "text stays text: " + page.body());
        assertTrue(page.body().contains("<dt>Summary</dt><dd>—</dd>"), "an empty field shows a dash");
        assertTrue(page.body().contains("href=\"" + ITEMS + "/" + id + "/edit\">Edit</a>"));
        assertTrue(page.body().contains("href=\"/console\""), "an admin is offered the administration");

        assertEquals(404, admin.client().get(ITEMS + "/not-an-id").status());
        String theirs = item(platform, platform.createWorkspace("other"), "Theirs", "a");
        var other = admin.client().get(ITEMS + "/" + theirs);
        assertEquals(404, other.status(), "another workspace's item is a missing one");
        assertTrue(other.body().contains("The item was not found in this workspace."), other.body());
    }

    @Test
    void theEditFormIsCheckedAgainstItsSchemaAndSavesWithANoticeShownOnce(TestPlatform platform) {
        UUID ws = platform.createWorkspace("edit");
        String id = item(platform, ws, "Delta", "a");
        item(platform, ws, "Taken", "a");
        Person member = ConsoleWebhooksTest.signIn(platform, ws, "member");
        String edit = ITEMS + "/" + id + "/edit";

        var form = member.client().get(edit);
        assertEquals(200, form.status(), form.body());
        assertTrue(form.body().contains("<label for=\"f-title\">Title</label>"), form.body());
        assertTrue(form.body().contains("value=\"Delta\""), "the form starts from the item's values");
        String csrf = form.hidden("csrf");

        var invalid = member.postWith(edit, csrf, "title", "", "copies", "200");
        assertEquals(400, invalid.status(), invalid.body());
        assertTrue(invalid.body().contains("<a href=\"#f-title\">"), "the summary links to the field");
        assertTrue(invalid.body().contains("name=\"copies\" type=\"number\" value=\"200\""), "what was typed is kept");

        var duplicate = member.postWith(edit, csrf, "title", "taken");
        assertEquals(422, duplicate.status(), duplicate.body());
        assertTrue(duplicate.body().contains("An item with this title exists already."), duplicate.body());

        var saved = member.postWith(edit, csrf, "title", "Delta 2", "pinned", "on");
        assertEquals(303, saved.status(), saved.body());
        assertEquals(ITEMS + "/" + id, saved.location());
        var after = member.client().get(saved.location());
        assertTrue(after.body().contains("The item was saved."), after.body());
        assertTrue(after.body().contains("<h1>Delta 2</h1>"));
        assertFalse(member.client().get(saved.location()).body().contains("The item was saved."), "shown once");

        var forged = member.postWith(edit, null, "title", "Forged");
        assertEquals(403, forged.status(), "no CSRF token, no change");
        assertTrue(member.client().get(ITEMS + "/" + id).body().contains("<h1>Delta 2</h1>"));
    }

    @Test
    void aBoardMovesCardsByPostAndARefusedMoveReadsAsAMessage(TestPlatform platform) {
        UUID ws = platform.createWorkspace("board");
        String free = item(platform, ws, "Free", "a");
        String pinned = item(platform, ws, "Stuck", "a");
        platform.jdbi().useHandle(h -> h.execute("UPDATE probe.desk_items SET pinned = true WHERE id = ?::uuid", pinned));
        Person member = ConsoleWebhooksTest.signIn(platform, ws, "member");

        var board = member.client().get("/app/probe/board");
        assertEquals(200, board.status(), board.body());
        assertTrue(board.body().contains("<h2 id=\"lane-a\">Kind A <span class=\"muted\">(2)</span></h2>"), board.body());
        assertTrue(board.body().contains("<label for=\"move-" + free + "\">Move to</label>"), "moves work without JS");
        String csrf = board.hidden("csrf");

        var moved = member.postWith(ITEMS + "/" + free + "/kind", csrf, "kind", "b");
        assertEquals(303, moved.status(), moved.body());
        var after = member.client().get(moved.location());
        assertTrue(after.body().contains("Moved to kind b."), after.body());
        assertTrue(after.body().contains("<h2 id=\"lane-b\">Kind B <span class=\"muted\">(1)</span></h2>"));

        var refused = member.postWith(ITEMS + "/" + pinned + "/kind", csrf, "kind", "b");
        assertEquals(409, refused.status(), refused.body());
        assertTrue(refused.body().contains("A pinned item cannot change its kind; unpin it first."), refused.body());

        var nonsense = member.postWith(ITEMS + "/" + free + "/kind", csrf, "kind", "z");
        assertEquals(400, nonsense.status(), nonsense.body());
        assertTrue(nonsense.body().contains("Kind:"), "the refused field is named: " + nonsense.body());
    }

    /** The lines of a page's event stream as they arrive, read by the test's own HTTP client with the session. */
    static java.util.concurrent.BlockingQueue<String> stream(TestPlatform platform, Person person, String path) {
        return streamAt(platform, person, "/app/_live?path="
                + java.net.URLEncoder.encode(path, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The lines of the event stream at {@code address} (a page's {@code data-live}), as they arrive. */
    static java.util.concurrent.BlockingQueue<String> streamAt(TestPlatform platform, Person person, String address) {
        var lines = new java.util.concurrent.LinkedBlockingQueue<String>();
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + platform.port()
                        + address))
                .header("Cookie", "lnp_console=" + person.client().cookie("lnp_console")).GET().build();
        java.net.http.HttpClient.newHttpClient()
                .sendAsync(request, java.net.http.HttpResponse.BodyHandlers.ofLines())
                .thenAccept(response -> {
                    lines.add("status " + response.statusCode());
                    response.body().forEach(lines::add);
                });
        return lines;
    }

    static boolean arrives(java.util.concurrent.BlockingQueue<String> lines, String line, long seconds)
            throws InterruptedException {
        long until = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < until) {
            String next = lines.poll(200, java.util.concurrent.TimeUnit.MILLISECONDS);
            if (line.equals(next)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void anOpenBoardHearsOfItsWorkspacesEventsAndOfNoOtherWorkspaces(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("live");
        UUID other = platform.createWorkspace("live-other");
        Person member = ConsoleWebhooksTest.signIn(platform, ws, "member");
        var board = member.client().get("/app/probe/board");
        assertTrue(board.body().contains("data-live=\"/app/_live?path=%2Fapp%2Fprobe%2Fboard&amp;since="), board.body());
        assertFalse(member.client().get(ITEMS).body().contains("data-live"), "a page that follows no events");

        var lines = stream(platform, member, "/app/probe/board");
        assertTrue(arrives(lines, "status 200", 5), "the stream opens: " + lines);
        assertTrue(arrives(lines, "retry: 5000", 5));
        Thread.sleep(1500); // the node's reader has started and knows where the outbox ends

        String theirKey = platform.key(other, "probe.write");
        assertEquals(201, platform.post("/api/v1/probe/events", theirKey, "{\"count\":1}").status());
        assertFalse(arrives(lines, "event: changed", 3), "another workspace's event says nothing here");

        String key = platform.key(ws, "probe.write");
        var published = platform.post("/api/v1/probe/events", key, "{\"count\":2,\"event\":\"probe.other\"}");
        assertEquals(201, published.status(), published.body());
        assertTrue(arrives(lines, "event: changed", 5), "this workspace's event reaches the open page: " + lines);

        assertEquals(404, member.client().get("/app/_live?path=%2Fapp%2Fprobe%2Fitems").status(),
                "a page that follows no events has no stream");
        assertEquals(404, member.client().get("/app/_live").status());
        var anonymous = new ConsoleClient(platform.port()).get("/app/_live?path=%2Fapp%2Fprobe%2Fboard");
        assertEquals(303, anonymous.status(), "no session, no stream");
    }

    /**
     * What happened before the page read its rows is on the page already: its stream does not tell it again (the
     * person's own change just before would otherwise replace the page they are reading), and tells what follows.
     */
    @Test
    void aPageHearsOnlyOfWhatHappenedAfterItWasRead(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("live-since");
        Person member = ConsoleWebhooksTest.signIn(platform, ws, "member");
        String key = platform.key(ws, "probe.write");
        var quiet = stream(platform, member, "/app/probe/board"); // the node's reader runs from here on
        assertTrue(arrives(quiet, "status 200", 5), "the stream opens: " + quiet);
        Thread.sleep(1500);

        assertEquals(201, platform.post("/api/v1/probe/events", key, "{\"count\":1,\"event\":\"probe.other\"}").status());
        var board = member.client().get("/app/probe/board");
        var live = java.util.regex.Pattern.compile("data-live=\"([^\"]+)\"").matcher(board.body());
        assertTrue(live.find(), board.body());
        var lines = streamAt(platform, member, live.group(1).replace("&amp;", "&"));
        assertTrue(arrives(lines, "status 200", 5), "the stream opens: " + lines);
        assertFalse(arrives(lines, "event: changed", 3), "the change the page shows already is not told again");

        assertEquals(201, platform.post("/api/v1/probe/events", key, "{\"count\":1,\"event\":\"probe.other\"}").status());
        assertTrue(arrives(lines, "event: changed", 5), "a change after the page was read is told: " + lines);
        var nonsense = streamAt(platform, member, "/app/_live?path=%2Fapp%2Fprobe%2Fboard&since=yesterday");
        assertTrue(arrives(nonsense, "status 200", 5), "a bad position is now, not an error: " + nonsense);
    }

    @Test
    void pagesAreRefusedToWhoeverMayNotSeeThem(TestPlatform platform) {
        UUID ws = platform.createWorkspace("refusals");
        var anonymous = new ConsoleClient(platform.port()).get(ITEMS);
        assertEquals(303, anonymous.status());
        assertEquals("/console/sign-in", anonymous.location());

        Person member = ConsoleWebhooksTest.signIn(platform, ws, "member");
        var admin = member.client().get("/console/probe/overview");
        assertEquals(403, admin.status(), "the administration's pages are for owners and admins");
        Person owner = ConsoleWebhooksTest.signIn(platform, ws, "owner");
        var overview = owner.client().get("/console/probe/overview");
        assertEquals(200, overview.status(), overview.body());
        assertTrue(overview.body().contains("href=\"/console/probe/overview\" aria-current=\"page\">Overview</a>"));

        assertEquals(404, member.client().get("/app/probe/nothing-here").status());

        String csrf = owner.csrf("/console/modules");
        var off = owner.postWith("/console/modules/probe", csrf, "enabled", "false", "confirm", "yes");
        assertEquals(303, off.status(), off.body());
        var switchedOff = member.client().get(ITEMS);
        assertEquals(404, switchedOff.status());
        assertTrue(switchedOff.body().contains("switched off"), switchedOff.body());
        var start = member.client().get("/app");
        assertEquals(200, start.status(), "no pages left: the start page says so");
        assertTrue(start.body().contains("Nothing to work on yet"), start.body());
    }
}
