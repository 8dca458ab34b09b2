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
 * The probe's desk pages (dev.lnp.api.pages) over real HTTP and PostgreSQL, for what the page API offers beyond
 * {@link AppPagesTest}: a generated create form and its errors, pages and buttons narrowed to a role, a secret shown
 * once after the action that made it, a button confirmed first, an action's own notice or problem, an item's notes
 * with a form of their own, the activity log, and every refusal (CSRF, origin, role, another workspace's item).
 */
@PlatformTest(plugins = "probe")
class DeskPagesTest {

    static final String ITEMS = "/app/probe/items";
    static final String ACTION = "probe.page " + ITEMS;

    static Person person(TestPlatform platform, UUID workspace, String role) {
        return ConsoleWebhooksTest.signIn(platform, workspace, role);
    }

    static ConsoleClient.Page post(Person p, String path, String... keyValues) {
        return p.postWith(path, p.csrf(ITEMS), keyValues);
    }

    /** Creates an item through the form; returns its id. */
    static String create(Person p, String title, String... more) {
        String[] form = new String[4 + more.length];
        form[0] = "title";
        form[1] = title;
        form[2] = "kind";
        form[3] = "a";
        System.arraycopy(more, 0, form, 4, more.length);
        var created = post(p, ITEMS + "/new", form);
        assertEquals(303, created.status(), created.body());
        String location = created.location();
        assertTrue(location.matches(ITEMS + "/[0-9a-f-]{36}"), location);
        return location.substring(ITEMS.length() + 1);
    }

    static List<String> activity(TestPlatform platform, UUID workspace) {
        return ConsoleWebhooksTest.activity(platform, workspace);
    }

    @Test
    void anAdminCreatesThroughTheGeneratedFormSeeingEachErrorNextToItsField(TestPlatform platform) {
        UUID ws = platform.createWorkspace("forms");
        var admin = person(platform, ws, "admin");

        var form = admin.client().get(ITEMS + "/new");
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
        assertTrue(body.contains(">Create item</button>"), body);

        // Everything wrong at once: each error next to its field, what was typed kept.
        var refused = post(admin, ITEMS + "/new", "title", "", "kind", "z", "copies", "lots", "contact", "not-mail",
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
        var shown = admin.client().get(ITEMS + "/" + id);
        assertEquals(200, shown.status(), shown.body());
        assertTrue(shown.body().contains("The item was created."));
        assertTrue(shown.body().contains("<dt>Tags</dt><dd>red, blue</dd>"), shown.body());
        assertTrue(shown.body().contains("<dt>Pinned</dt><dd>yes</dd>"));
        assertTrue(shown.body().contains("<dt>Copies</dt><dd>3</dd>"));
        assertEquals(List.of(ACTION + "/new"), activity(platform, ws));

        var listed = admin.client().get(ITEMS);
        assertTrue(listed.body().contains("<a href=\"" + ITEMS + "/" + id + "\">Printer</a>"), listed.body());

        // The plugin's own rule (a unique title) comes back next to the field, with what was typed.
        var duplicate = post(admin, ITEMS + "/new", "title", "printer", "kind", "b");
        assertEquals(422, duplicate.status(), duplicate.body());
        assertTrue(duplicate.body().contains("Title: An item with this title exists already."), duplicate.body());
        assertTrue(duplicate.body().contains("value=\"printer\""));
    }

    @Test
    void buttonsAskFirstWhenDeclaredAndARotatedKeyIsShownOnce(TestPlatform platform) {
        UUID ws = platform.createWorkspace("actions");
        var owner = person(platform, ws, "owner");
        String id = create(owner, "Lamp");
        String row = ITEMS + "/" + id;

        var shown = owner.client().get(row);
        String body = shown.body();
        int rotate = body.indexOf("action=\"" + row + "/rotate-key\"");
        assertTrue(rotate > 0, body);
        assertTrue(body.indexOf("name=\"confirm\" value=\"yes\" required> The item&#39;s current key stops working",
                rotate) > 0 || body.indexOf("name=\"confirm\" value=\"yes\" required> The item's current key stops working",
                rotate) > 0, "a box to tick first, saying what happens: " + body);
        assertTrue(body.contains("<dt>Key</dt><dd>no</dd>"));

        var rotated = post(owner, row + "/rotate-key", "confirm", "yes");
        assertEquals(303, rotated.status(), rotated.body());
        assertEquals(row, rotated.location());
        var secret = owner.client().get(row);
        assertEquals(200, secret.status(), secret.body());
        assertEquals("no-store", secret.header("Cache-Control"));
        String key = secret.firstMatch("value=\"(desk_[0-9a-f]{48})\"");
        assertNotNull(key, secret.body());
        assertTrue(secret.body().contains("It is shown only this once."));
        assertTrue(secret.body().contains("<label for=\"once-value\">Item key</label>"), secret.body());
        assertTrue(secret.body().contains("data-copy=\"once-value\""), "copy button");
        assertTrue(secret.body().contains("Send the key as X-Desk-Key."), "the action's notice beside it");
        assertTrue(secret.body().contains("<dt>Key</dt><dd>yes</dd>"));
        var after = owner.client().get(row);
        assertEquals(200, after.status());
        assertFalse(after.body().contains(key), "never shown again");
        assertFalse(after.body().contains("once-value"), after.body());

        // A button without confirmation; offered only while it applies, refused with a readable page after.
        assertTrue(body.contains("action=\"" + row + "/pin\""));
        var pinned = post(owner, row + "/pin");
        assertEquals(303, pinned.status(), pinned.body());
        var pinnedPage = owner.client().get(pinned.location());
        assertTrue(pinnedPage.body().contains("The item was pinned."));
        assertFalse(pinnedPage.body().contains(row + "/pin\""), "no longer offered");
        var again = post(owner, row + "/pin");
        assertEquals(409, again.status());
        assertTrue(again.body().contains("The item is pinned already."), again.body());

        // A problem the plugin throws is a readable page with its status; a notice of its own is shown once.
        var refused = post(owner, row + "/check");
        assertEquals(409, refused.status(), refused.body());
        assertTrue(refused.body().contains("This item cannot be checked right now."), refused.body());
        String counted = create(owner, "Counted", "copies", "4");
        var checked = post(owner, ITEMS + "/" + counted + "/check");
        assertEquals(303, checked.status(), checked.body());
        assertTrue(owner.client().get(checked.location()).body().contains("<p>Checked: 4 copies present.</p>"));

        var deleted = post(owner, row + "/delete", "confirm", "yes");
        assertEquals(303, deleted.status());
        assertEquals(ITEMS, deleted.location());
        assertTrue(owner.client().get(ITEMS).body().contains("The item was deleted."));
        assertEquals(404, owner.client().get(row).status());
        assertEquals(List.of(ACTION + "/new", ACTION + "/{id}/rotate-key", ACTION + "/{id}/pin", ACTION + "/new",
                ACTION + "/{id}/check", ACTION + "/{id}/delete"), activity(platform, ws));
    }

    @Test
    void aFormWithoutTheSessionsCsrfTokenOrFromAnotherOriginIsRefused(TestPlatform platform) {
        UUID ws = platform.createWorkspace("csrf");
        var admin = person(platform, ws, "admin");
        var missing = admin.postWith(ITEMS + "/new", null, "title", "Sneaky", "kind", "a");
        assertEquals(403, missing.status(), missing.body());
        assertTrue(missing.body().contains("Reload the page and try again."), missing.body());
        var wrong = admin.postWith(ITEMS + "/new", "not-the-token", "title", "Sneaky", "kind", "a");
        assertEquals(403, wrong.status());
        String id = create(admin, "Real");
        assertEquals(403, admin.postWith(ITEMS + "/" + id + "/rotate-key", "nope", "confirm", "yes").status());

        admin.client().origin("http://evil.example");
        var foreign = post(admin, ITEMS + "/new", "title", "Sneaky", "kind", "a");
        assertEquals(403, foreign.status());
        assertTrue(foreign.body().contains("was not sent from"), foreign.body());
        assertEquals(List.of(ACTION + "/new"), activity(platform, ws), "only the real one");
    }

    @Test
    void aMemberSeesItemsButChangesNothingTheRoleNarrowsAndOnlyOwnersDelete(TestPlatform platform) {
        UUID ws = platform.createWorkspace("roles");
        var admin = person(platform, ws, "admin");
        var member = person(platform, ws, "member");
        String id = create(admin, "Shared");

        var row = member.client().get(ITEMS + "/" + id);
        assertEquals(200, row.status(), row.body());
        assertFalse(row.body().contains("/rotate-key"), "no buttons offered to a member");
        assertFalse(row.body().contains("/delete"));

        var form = member.client().get(ITEMS + "/new");
        assertEquals(403, form.status());
        assertTrue(form.body().contains("Your role does not allow this (it needs admin or above)."), form.body());
        assertEquals(403, post(member, ITEMS + "/new", "title", "Mine", "kind", "a").status());
        assertEquals(403, post(member, ITEMS + "/" + id + "/pin").status());
        assertEquals(403, post(member, ITEMS + "/" + id + "/rotate-key", "confirm", "yes").status());

        // Delete is declared owner-only: an admin is not offered it and is refused.
        var asAdmin = admin.client().get(ITEMS + "/" + id).body();
        assertTrue(asAdmin.contains("/rotate-key"), asAdmin);
        assertFalse(asAdmin.contains("/delete"), asAdmin);
        var refused = post(admin, ITEMS + "/" + id + "/delete", "confirm", "yes");
        assertEquals(403, refused.status());
        assertTrue(refused.body().contains("(it needs owner or above)"), refused.body());
        assertEquals(200, admin.client().get(ITEMS + "/" + id).status(), "still there");
        assertEquals(List.of(ACTION + "/new"), activity(platform, ws));
    }

    @Test
    void itemsOfAnotherWorkspaceAreNotFound(TestPlatform platform) {
        var ownerA = person(platform, platform.createWorkspace("A"), "owner");
        var ownerB = person(platform, platform.createWorkspace("B"), "owner");
        String id = create(ownerA, "A's item");
        String row = ITEMS + "/" + id;
        for (String path : List.of(row, row + "/edit", row + "/notes", row + "/notes/new")) {
            var page = ownerB.client().get(path);
            assertEquals(404, page.status(), path + "\n" + page.body());
            assertTrue(page.body().contains("The item was not found in this workspace."), page.body());
        }
        for (String action : List.of("/delete", "/rotate-key", "/pin", "/check")) {
            assertEquals(404, post(ownerB, row + action, "confirm", "yes").status(), action);
        }
        assertEquals(404, post(ownerB, row + "/notes/new", "body", "hi").status());
        assertEquals(200, ownerA.client().get(row).status(), "still there for its workspace");
        assertTrue(ownerA.client().get(row + "/notes").body().contains("No notes on this item yet."));

        var archived = ownerA.client().get("/console/probe/failing/archived");
        assertEquals(410, archived.status(), "a renderer's own ApiProblem keeps its status");
        assertTrue(archived.body().contains("This item was archived and can no longer be shown."), archived.body());
        assertEquals(404, ownerA.client().get(ITEMS + "/..%2Fx").status());
        assertEquals(404, ownerA.client().get(ITEMS + "/" + id + "/nope").status());
    }

    @Test
    void anItemsNotesAreListedAndWrittenOnAFormOfTheirOwn(TestPlatform platform) {
        UUID ws = platform.createWorkspace("notes");
        var member = person(platform, ws, "member");
        var admin = person(platform, ws, "admin");
        String id = create(admin, "One");
        String notes = ITEMS + "/" + id + "/notes";

        var item = member.client().get(ITEMS + "/" + id);
        assertTrue(item.body().contains("href=\"" + notes + "\">Notes</a>"), item.body());
        var empty = member.client().get(notes);
        assertEquals(200, empty.status(), empty.body());
        assertTrue(empty.body().contains("<h1>Notes on One</h1>"), empty.body());
        assertTrue(empty.body().contains("No notes on this item yet."));
        assertTrue(empty.body().contains("href=\"" + notes + "/new\">New note</a>"));

        var tooLong = post(member, notes + "/new", "body", "n".repeat(501));
        assertEquals(400, tooLong.status());
        assertTrue(tooLong.body().contains("Note: Write at most 500 characters."), tooLong.body());
        var written = post(member, notes + "/new", "body", "Toner is low");
        assertEquals(303, written.status(), written.body());
        assertEquals(notes, written.location());
        var listed = member.client().get(notes);
        assertTrue(listed.body().contains("Toner is low"));
        assertTrue(listed.body().contains("The note was added."));
        assertEquals(404, member.client().get(ITEMS + "/" + UUID.randomUUID() + "/notes").status());
    }

    @Test
    void withoutASessionTheFormAsksToSignIn(TestPlatform platform) {
        var client = new ConsoleClient(platform.port());
        var page = client.get(ITEMS + "/new");
        assertEquals(303, page.status());
        assertEquals("/console/sign-in", page.location());
    }
}
