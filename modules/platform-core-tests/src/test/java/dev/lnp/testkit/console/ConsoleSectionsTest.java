package dev.lnp.testkit.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.console.ConsoleWebhooksTest.Person;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Console sections contributed by a plugin (the probe's "Desk items", dev.lnp.api.console) over real HTTP and
 * PostgreSQL: the generated forms and their errors, the detail view, row actions with confirmation and a secret
 * shown once, the child section, paging, and every refusal (CSRF, origin, role, another workspace's row, the module
 * switched off).
 */
@PlatformTest(plugins = "probe")
class ConsoleSectionsTest {

    static final String DESK = "/console/m/probe/desk";

    static Person person(TestPlatform platform, UUID workspace, String role) {
        return ConsoleWebhooksTest.signIn(platform, workspace, role);
    }

    static ConsoleClient.Page post(Person p, String path, String... keyValues) {
        return p.postWith(path, p.csrf(DESK), keyValues);
    }

    /** Creates an item through the form; returns its id. */
    static String create(Person p, String title, String... more) {
        String[] form = new String[4 + more.length];
        form[0] = "title";
        form[1] = title;
        form[2] = "kind";
        form[3] = "a";
        System.arraycopy(more, 0, form, 4, more.length);
        var created = post(p, DESK + "/new", form);
        assertEquals(303, created.status(), created.body());
        String location = created.location();
        assertTrue(location.matches(DESK + "/[0-9a-f-]{36}\\?done=created"), location);
        return location.substring(DESK.length() + 1, DESK.length() + 37);
    }

    static List<String> activity(TestPlatform platform, UUID workspace) {
        return ConsoleWebhooksTest.activity(platform, workspace);
    }

    @Test
    void anAdminCreatesThroughTheGeneratedFormSeeingEachErrorNextToItsField(TestPlatform platform) {
        UUID ws = platform.createWorkspace("forms");
        var admin = person(platform, ws, "admin");

        var empty = admin.client().get(DESK);
        assertEquals(200, empty.status(), empty.body());
        assertTrue(empty.body().contains("No desk items yet. Create the first one."), empty.body());
        assertTrue(empty.body().contains("<p class=\"section\">Probe</p>"), "the section's navigation group");
        assertTrue(empty.body().contains("href=\"" + DESK + "\" aria-current=\"page\">Desk items</a>"), empty.body());
        assertTrue(empty.body().contains("href=\"" + DESK + "/new\">New item</a>"));

        var form = admin.client().get(DESK + "/new");
        assertEquals(200, form.status(), form.body());
        String body = form.body();
        assertTrue(body.contains("<label for=\"f-title\">Title</label>"), "label from the schema's title");
        assertTrue(body.contains("How the item is called; unique in the workspace."), "help from description");
        assertTrue(body.contains("<select id=\"f-kind\" name=\"kind\""), "enum as a choice");
        assertTrue(body.contains("<input type=\"checkbox\" id=\"f-pinned\" name=\"pinned\""), "boolean as a checkbox");
        assertTrue(body.contains("name=\"copies\" type=\"number\""), "integer as a number");
        assertTrue(body.contains("<textarea id=\"f-tags\" name=\"tags\""), "array of strings as a text area");
        assertTrue(body.contains("One value a line."));
        assertTrue(body.contains("name=\"contact\" type=\"email\""), "format email");
        assertTrue(body.contains("<textarea id=\"f-summary\" name=\"summary\" rows=\"6\" maxlength=\"1000\""),
                "a long string as a text area");
        assertTrue(body.contains("Contact e-mail <span class=\"muted\">(optional)</span>"));

        // Everything wrong at once: each error next to its field, what was typed kept.
        var refused = post(admin, DESK + "/new", "title", "", "kind", "z", "copies", "lots", "contact", "not-mail",
                "tags", "ok\n" + "x".repeat(21), "summary", "Kept <b>as typed</b>");
        assertEquals(400, refused.status(), refused.body());
        String page = refused.body();
        assertTrue(page.contains("<a href=\"#f-title\">Title: Fill in Title.</a>"), page);
        assertTrue(page.contains("Kind: Choose one of the options."), page);
        assertTrue(page.contains("Copies: Enter a whole number."), page);
        assertTrue(page.contains("Contact e-mail: Enter an e-mail address"), page);
        assertTrue(page.contains("Tags: Each line may have at most 20 characters (line 2)."), page);
        assertTrue(page.contains("<div class=\"field invalid\">"), page);
        assertTrue(page.contains("aria-invalid=\"true\""));
        assertTrue(page.contains("value=\"lots\""), "the typed number is kept");
        assertTrue(page.contains("Kept &lt;b&gt;as typed&lt;/b&gt;</textarea>"), "kept and escaped");
        assertTrue(activity(platform, ws).isEmpty(), "nothing happened");

        String id = create(admin, "Printer", "pinned", "on", "copies", "3", "tags", "red\r\n\r\nblue\n",
                "contact", "ops@example.com", "summary", "Second floor");
        var shown = admin.client().get(DESK + "/" + id + "?done=created");
        assertEquals(200, shown.status(), shown.body());
        assertTrue(shown.body().contains("The item was created."));
        assertTrue(shown.body().contains("<dt>Tags</dt><dd>red, blue</dd>"), shown.body());
        assertTrue(shown.body().contains("<dt>Pinned</dt><dd>yes</dd>"));
        assertTrue(shown.body().contains("<dt>Copies</dt><dd>3</dd>"));
        assertEquals(List.of("probe.desk.created " + id), activity(platform, ws));

        var listed = admin.client().get(DESK);
        assertTrue(listed.body().contains("<a href=\"" + DESK + "/" + id + "\">Printer</a>"), listed.body());

        // The plugin's own rule (a unique title) comes back next to the field, with what was typed.
        var duplicate = post(admin, DESK + "/new", "title", "printer", "kind", "b");
        assertEquals(422, duplicate.status(), duplicate.body());
        assertTrue(duplicate.body().contains("Title: An item with this title exists already."), duplicate.body());
        assertTrue(duplicate.body().contains("value=\"printer\""));
    }

    @Test
    void theEditFormIsFilledFromTheRowAndSaves(TestPlatform platform) {
        UUID ws = platform.createWorkspace("edit");
        var admin = person(platform, ws, "admin");
        String id = create(admin, "Scanner", "tags", "a\nb", "copies", "2");
        var form = admin.client().get(DESK + "/" + id + "/edit");
        assertEquals(200, form.status(), form.body());
        assertTrue(form.body().contains("value=\"Scanner\""));
        assertTrue(form.body().contains(">a\nb</textarea>"), form.body());
        assertTrue(form.body().contains("value=\"2\""));

        var bad = post(admin, DESK + "/" + id + "/edit", "title", "y".repeat(41));
        assertEquals(400, bad.status());
        assertTrue(bad.body().contains("Title: Write at most 40 characters."), bad.body());

        var saved = post(admin, DESK + "/" + id + "/edit", "title", "Scanner 2", "tags", "c");
        assertEquals(303, saved.status(), saved.body());
        assertEquals(DESK + "/" + id + "?done=saved", saved.location());
        var shown = admin.client().get(saved.location());
        assertTrue(shown.body().contains("The item was saved."));
        assertTrue(shown.body().contains("<dt>Title</dt><dd>Scanner 2</dd>"));
        assertTrue(shown.body().contains("<dt>Tags</dt><dd>c</dd>"));
        assertTrue(shown.body().contains("<dt>Pinned</dt><dd>no</dd>"), "an unticked box is false");
        assertTrue(activity(platform, ws).contains("probe.desk.updated " + id));
    }

    @Test
    void rowActionsAskFirstWhenDeclaredAndShowASecretOnce(TestPlatform platform) {
        UUID ws = platform.createWorkspace("actions");
        var owner = person(platform, ws, "owner");
        String id = create(owner, "Lamp");
        String row = DESK + "/" + id;

        var shown = owner.client().get(row);
        assertTrue(shown.body().contains("href=\"" + row + "/actions/rotate-key\">Rotate key…</a>"), shown.body());
        assertTrue(shown.body().contains("class=\"button danger\" href=\"" + row + "/actions/deactivate\""));

        var confirm = owner.client().get(row + "/actions/rotate-key");
        assertEquals(200, confirm.status(), confirm.body());
        assertTrue(confirm.body().contains("The item&#39;s current key stops working at once.")
                || confirm.body().contains("The item's current key stops working at once."), confirm.body());
        // Posted without the confirmation page's button: it asks first, nothing happens.
        var skipped = post(owner, row + "/actions/rotate-key");
        assertEquals(303, skipped.status());
        assertEquals(row + "/actions/rotate-key", skipped.location());
        assertTrue(owner.client().get(row).body().contains("<dt>Key</dt><dd>no</dd>"));

        var secret = post(owner, row + "/actions/rotate-key", "confirm", "yes");
        assertEquals(201, secret.status(), secret.body());
        assertEquals("no-store", secret.header("Cache-Control"));
        String key = secret.firstMatch("value=\"(desk_[0-9a-f]{48})\"");
        assertNotNull(key, secret.body());
        assertTrue(secret.body().contains("It is shown only this once."));
        assertTrue(secret.body().contains("data-copy=\"new-key\""), "copy button");
        var after = owner.client().get(row);
        assertTrue(after.body().contains("<dt>Key</dt><dd>yes</dd>"));
        assertFalse(after.body().contains(key), "never shown again");

        // An action without confirmation runs at once; it is offered only while it applies.
        var pinned = post(owner, row + "/actions/pin");
        assertEquals(303, pinned.status(), pinned.body());
        assertEquals(row + "?done=pin", pinned.location());
        var pinnedPage = owner.client().get(pinned.location());
        assertTrue(pinnedPage.body().contains("The item was pinned."));
        assertFalse(pinnedPage.body().contains(row + "/actions/pin\""), "no longer offered");
        var again = post(owner, row + "/actions/pin");
        assertEquals(409, again.status());
        assertTrue(again.body().contains("does not apply to this item any more"), again.body());

        // A problem the plugin throws is a readable page with its status.
        var refused = post(owner, row + "/actions/check");
        assertEquals(409, refused.status(), refused.body());
        assertTrue(refused.body().contains("This item cannot be checked right now."), refused.body());
        // A notice of the plugin's own is shown on the row, once.
        String counted = create(owner, "Counted", "copies", "4");
        var checked = post(owner, DESK + "/" + counted + "/actions/check");
        assertEquals(200, checked.status(), checked.body());
        assertTrue(checked.body().contains("<p>Checked: 4 copies present.</p>"), checked.body());
        assertTrue(checked.body().contains("<dt>Title</dt><dd>Counted</dd>"));

        var deactivated = post(owner, row + "/actions/deactivate", "confirm", "yes");
        assertEquals(303, deactivated.status());
        assertTrue(owner.client().get(deactivated.location()).body().contains("The item was deactivated."));

        var deleted = post(owner, row + "/actions/delete", "confirm", "yes");
        assertEquals(303, deleted.status());
        assertEquals(DESK, deleted.location());
        assertEquals(404, owner.client().get(row).status());
        assertEquals(List.of("probe.desk.created " + id, "probe.desk.rotate-key " + id, "probe.desk.pin " + id,
                "probe.desk.created " + counted, "probe.desk.check " + counted,
                "probe.desk.deactivate " + id, "probe.desk.delete " + id), activity(platform, ws));

        var unknown = post(owner, DESK + "/" + create(owner, "Other") + "/actions/explode", "confirm", "yes");
        assertEquals(404, unknown.status());
    }

    @Test
    void aFormWithoutTheSessionsCsrfTokenOrFromAnotherOriginIsRefused(TestPlatform platform) {
        UUID ws = platform.createWorkspace("csrf");
        var admin = person(platform, ws, "admin");
        var missing = admin.postWith(DESK + "/new", null, "title", "Sneaky", "kind", "a");
        assertEquals(403, missing.status(), missing.body());
        assertTrue(missing.body().contains("Reload the page and try again."), missing.body());
        var wrong = admin.postWith(DESK + "/new", "not-the-token", "title", "Sneaky", "kind", "a");
        assertEquals(403, wrong.status());
        String id = create(admin, "Real");
        assertEquals(403, admin.postWith(DESK + "/" + id + "/actions/delete", "nope", "confirm", "yes").status());

        admin.client().origin("http://evil.example");
        var foreign = post(admin, DESK + "/new", "title", "Sneaky", "kind", "a");
        assertEquals(403, foreign.status());
        assertTrue(foreign.body().contains("was not sent from"), foreign.body());
        assertEquals(List.of("probe.desk.created " + id), activity(platform, ws), "only the real one");
    }

    @Test
    void aMemberSeesTheSectionButChangesNothingAndOnlyOwnersDelete(TestPlatform platform) {
        UUID ws = platform.createWorkspace("roles");
        var admin = person(platform, ws, "admin");
        var member = person(platform, ws, "member");
        String id = create(admin, "Shared");

        var list = member.client().get(DESK);
        assertEquals(200, list.status(), list.body());
        assertTrue(list.body().contains(">Desk items</a>"), "members see the section (min role member)");
        assertFalse(list.body().contains("New item"), "but no create button");
        var row = member.client().get(DESK + "/" + id);
        assertEquals(200, row.status());
        assertFalse(row.body().contains("/actions/"), "no actions offered");
        assertFalse(row.body().contains("/edit"), "no edit offered");

        var form = member.client().get(DESK + "/new");
        assertEquals(403, form.status());
        assertTrue(form.body().contains("Your role does not allow this (it needs admin or above)."), form.body());
        assertEquals(403, post(member, DESK + "/new", "title", "Mine", "kind", "a").status());
        assertEquals(403, post(member, DESK + "/" + id + "/edit", "title", "Mine").status());
        assertEquals(403, post(member, DESK + "/" + id + "/actions/pin").status());
        assertEquals(403, member.client().get(DESK + "/" + id + "/actions/rotate-key").status());

        // Delete is declared owner-only: an admin is not offered it and is refused.
        assertFalse(admin.client().get(DESK + "/" + id).body().contains("/actions/delete"));
        assertEquals(403, post(admin, DESK + "/" + id + "/actions/delete", "confirm", "yes").status());
        assertEquals(List.of("probe.desk.created " + id), activity(platform, ws));
    }

    @Test
    void rowsOfAnotherWorkspaceAreNotFound(TestPlatform platform) {
        var ownerA = person(platform, platform.createWorkspace("A"), "owner");
        var ownerB = person(platform, platform.createWorkspace("B"), "owner");
        String id = create(ownerA, "A's item");
        String row = DESK + "/" + id;
        for (String path : List.of(row, row + "/edit", row + "/actions/rotate-key", "/console/m/probe/notes?parent=" + id,
                "/console/m/probe/notes/new?parent=" + id)) {
            var page = ownerB.client().get(path);
            assertEquals(404, page.status(), path + "\n" + page.body());
            assertTrue(page.body().contains("does not exist in this workspace"), page.body());
        }
        assertEquals(404, post(ownerB, row + "/actions/delete", "confirm", "yes").status());
        assertEquals(404, post(ownerB, row + "/edit", "title", "Taken over").status());
        assertEquals(404, post(ownerB, "/console/m/probe/notes/new?parent=" + id, "body", "hi").status());
        assertFalse(ownerB.client().get(DESK).body().contains("A&#39;s item"));
        assertEquals(200, ownerA.client().get(row).status(), "still there for its workspace");
        assertTrue(ownerA.client().get(row).body().contains("<dt>Title</dt><dd>A&#39;s item</dd>")
                || ownerA.client().get(row).body().contains("<dt>Title</dt><dd>A's item</dd>"));

        assertEquals(404, ownerA.client().get(DESK + "/not-a-uuid").status());
        var archived = ownerA.client().get(DESK + "/archived");
        assertEquals(410, archived.status(), "a callback's own ApiProblem keeps its status");
        assertTrue(archived.body().contains("This item was archived and can no longer be shown."), archived.body());
        assertEquals(404, ownerA.client().get(DESK + "/..%2Fx").status());
        assertEquals(404, ownerA.client().get("/console/m/probe/nope").status());
        assertEquals(404, ownerA.client().get("/console/m/nope/desk").status());
    }

    @Test
    void aSwitchedOffModuleHasNoSection(TestPlatform platform) {
        UUID ws = platform.createWorkspace("off");
        var owner = person(platform, ws, "owner");
        String id = create(owner, "Before");
        var off = post(owner, "/console/modules/probe", "enabled", "false", "confirm", "yes");
        assertEquals(303, off.status(), off.body());
        var home = owner.client().get("/console/members");
        assertFalse(home.body().contains(DESK), "no navigation entry");
        var list = owner.client().get(DESK);
        assertEquals(404, list.status());
        assertTrue(list.body().contains("The module probe is switched off for this workspace."), list.body());
        assertEquals(404, owner.client().get(DESK + "/" + id).status());
        assertEquals(404, post(owner, DESK + "/new", "title", "During", "kind", "a").status());
        post(owner, "/console/modules/probe", "enabled", "true");
        assertEquals(200, owner.client().get(DESK + "/" + id).status(), "data stays");
    }

    @Test
    void listsArePagedAndChildSectionsHangOffTheirRow(TestPlatform platform) {
        UUID ws = platform.createWorkspace("paging");
        var admin = person(platform, ws, "admin");
        String first = create(admin, "One");
        for (String title : List.of("Two", "Three", "Four")) {
            create(admin, title);
        }
        var page1 = admin.client().get(DESK);
        assertTrue(page1.body().contains("Page 1 of 2 (4 in all)"), page1.body());
        assertTrue(page1.body().contains("href=\"" + DESK + "?page=2\" rel=\"next\""), page1.body());
        assertFalse(page1.body().contains(">Four</a>"));
        var page2 = admin.client().get(DESK + "?page=2");
        assertTrue(page2.body().contains(">Four</a>"));
        assertEquals(400, admin.client().get(DESK + "?page=0").status());
        assertEquals(400, admin.client().get(DESK + "?page=abc").status());

        var row = admin.client().get(DESK + "/" + first);
        String notes = "/console/m/probe/notes?parent=" + first;
        assertTrue(row.body().contains("href=\"" + notes + "\">Notes</a>"), row.body());
        var empty = admin.client().get(notes);
        assertEquals(200, empty.status(), empty.body());
        assertTrue(empty.body().contains("No notes on this item yet."));
        assertTrue(empty.body().contains("aria-label=\"Breadcrumb\""));
        assertTrue(empty.body().contains(">One</a>"), "the parent row in the breadcrumbs");

        var tooLong = post(admin, "/console/m/probe/notes/new?parent=" + first, "body", "n".repeat(501));
        assertEquals(400, tooLong.status());
        assertTrue(tooLong.body().contains("Note: Write at most 500 characters."), tooLong.body());
        var written = post(admin, "/console/m/probe/notes/new?parent=" + first, "body", "Toner is low");
        assertEquals(303, written.status(), written.body());
        assertEquals(notes, written.location());
        assertTrue(admin.client().get(notes).body().contains("Toner is low"));
        assertEquals(404, admin.client().get("/console/m/probe/notes").status(), "a child section needs its row");
        assertEquals(404, admin.client().get("/console/m/probe/notes?parent=" + UUID.randomUUID()).status());
    }

    @Test
    void withoutASessionTheSectionAsksToSignIn(TestPlatform platform) {
        var client = new ConsoleClient(platform.port());
        var page = client.get(DESK);
        assertEquals(303, page.status());
        assertEquals("/console/sign-in", page.location());
    }
}
