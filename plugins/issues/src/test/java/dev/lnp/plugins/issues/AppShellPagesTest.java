package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The shell around every page of the workspace application and its search box, over HTTP as signed-in people:
 * the workspace as the brand, navigation by module and role, and the search over every module's sources.
 */
@PlatformTest(plugins = {"crm", "projects", "issues"})
class AppShellPagesTest {

    @Test
    void theShellNamesTheWorkspaceAndShowsTheModulesAndTheAdministrationByRole(TestPlatform platform) {
        UUID ws = platform.createWorkspace("Analytical Engines");
        String member = platform.person(ws, "member").get("/app/crm/contacts").body();
        assertTrue(member.contains("<title>Contacts · Analytical Engines</title>"), member);
        assertTrue(member.contains("<div class=\"brand\"><a href=\"/app\">Analytical Engines</a></div>"), member);
        assertFalse(member.contains("Workspace console"), "the application is not the console");
        assertTrue(member.contains("<a class=\"skip\" href=\"#main\">Skip to content</a>"), member);
        assertTrue(member.contains("<nav aria-label=\"Modules\" class=\"side\">"), member);
        for (String module : new String[] {">CRM</p>", ">Projects</p>"}) {
            assertTrue(member.contains(module), module + " in " + member);
        }
        assertTrue(member.contains("<a href=\"/app/crm/contacts\" aria-current=\"page\">Contacts</a>"), member);
        assertTrue(member.contains("<a href=\"/app/crm/deals\">"), "other entries are not current: " + member);
        assertFalse(member.contains(">Administration</p>"), "members get no administration entry");
        assertTrue(member.contains("action=\"/app/search\"") && member.contains("Press <kbd>/</kbd> to search"),
                "the search box and its shortcut's hint: " + member);

        for (String role : new String[] {"admin", "owner"}) {
            String page = platform.person(ws, role).get("/app/projects/projects").body();
            assertTrue(page.contains(">Administration</p>") && page.contains("<a href=\"/console\">"), role + ": " + page);
            assertTrue(page.contains("<a href=\"/app/projects/projects\" aria-current=\"page\">Projects</a>"), page);
        }

        var htmx = java.util.regex.Pattern.compile("<script src=\"(/console/assets/[0-9a-f]+/htmx.min.js)\" defer>")
                .matcher(member);
        assertTrue(htmx.find(), "the application's pages load the bundled htmx: " + member);
        var script = platform.get(htmx.group(1), null);
        assertEquals(200, script.status());
        assertTrue(script.body().contains("htmx-config"), "served as one of the console's own scripts");
        assertTrue(member.contains("<meta name=\"htmx-config\" content='{\"includeIndicatorStyles\":false"),
                "no inline style under the strict CSP");

        var off = OperatorCli.run(platform, "workspace", "modules", "--workspace", ws.toString(), "--disable", "issues");
        assertEquals(0, off.exit(), off.err());
        String without = platform.person(ws, "member").get("/app/projects/projects").body();
        assertFalse(without.contains("/app/projects/tasks"), "a module switched off shows no entry: " + without);

        var missing = platform.person(ws, "member").get("/app/no/such/page");
        assertEquals(404, missing.status());
        assertTrue(missing.body().contains("<div class=\"brand\"><a href=\"/app\">Analytical Engines</a></div>"),
                "the application's not-found page is in the application's shell: " + missing.body());
    }

    @Test
    void theSearchFindsEveryKindItsModulesOfferAndOnlyInTheWorkspace(TestPlatform platform) {
        UUID ws = platform.createWorkspace("Engines search");
        String key = platform.key(ws, "contacts.write", "companies.write", "deals.write", "projects.write",
                "issues.write");
        String ada = dev.lnp.api.Json.parse(platform.post("/api/v1/crm/contacts", key,
                "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\",\"email\":\"ada@engines.example\"}")
                .body()).path("id").asText();
        platform.post("/api/v1/crm/companies", key, "{\"name\":\"Lovelace Engines\",\"domain\":\"lovelace.example\"}");
        platform.post("/api/v1/crm/deals", key, "{\"title\":\"Lovelace notes licence\"}");
        platform.post("/api/v1/projects", key, "{\"name\":\"Lovelace archive\"}");
        String task = platform.post("/api/v1/issues", key, "{\"kind\":\"task\",\"title\":\"Scan the Lovelace notes\"}")
                .data().path("id").asText();
        String ticket = platform.post("/api/v1/issues", key, "{\"kind\":\"ticket\",\"title\":\"Lovelace scan is blurry\"}")
                .data().path("id").asText();
        UUID other = platform.createWorkspace("Somebody else");
        platform.post("/api/v1/crm/contacts", platform.key(other, "contacts.write"),
                "{\"first_name\":\"Augusta\",\"last_name\":\"Lovelace\",\"email\":\"augusta@else.example\"}");
        TestPerson member = platform.person(ws, "member");

        var found = member.get("/app/search?q=lovelace");
        assertEquals(200, found.status(), found.body());
        String page = found.body();
        for (String kind : new String[] {"Contacts", "Companies", "Deals", "Projects", "Tasks", "Tickets"}) {
            assertTrue(page.contains(">" + kind + "</h2>"), kind + " in " + page);
        }
        assertTrue(page.contains("<a href=\"/app/crm/contacts/" + ada + "\" data-kind=\"Contacts\">Ada Lovelace</a>"),
                page);
        assertTrue(page.contains("ada@engines.example"), "a hit says which one it is: " + page);
        assertTrue(page.contains("<a href=\"/app/projects/tasks/" + task + "\" data-kind=\"Tasks\">Scan the Lovelace notes</a>"),
                page);
        assertTrue(page.contains(">Lovelace Engines</a>") && page.contains(">Lovelace notes licence</a>")
                && page.contains(">Lovelace archive</a>") && page.contains("Planned") && page.contains(">Lovelace scan is blurry</a>"), page);
        assertFalse(page.contains("Augusta"), "another workspace's contact is never found: " + page);
        assertTrue(page.contains("value=\"lovelace\""), "the box keeps what was searched");
        assertTrue(member.get("/app/search?q=ADA%20engines").body().contains(">Ada Lovelace</a>"),
                "every word, any case");
        assertTrue(member.get("/app/crm/contacts/" + ada).status() == 200, "the hit opens its page");
        assertTrue(page.contains("<a href=\"/app/support/tickets/" + ticket + "\" data-kind=\"Tickets\">"), page);
        assertEquals(200, member.get("/app/support/tickets/" + ticket).status(), "a ticket's hit opens it in Support");

        String suggested = member.get("/app/search/suggestions?q=lovelace").body();
        assertTrue(suggested.contains("<li role=\"option\" id=\"suggestion-") && suggested.contains(
                "data-href=\"/app/crm/contacts/" + ada + "\"><span class=\"kind\">Contacts</span>Ada Lovelace"), suggested);
        assertTrue(suggested.contains("data-href=\"/app/search?q=lovelace\" data-count=\"6\""),
                "the last option opens the search page: " + suggested);
        assertFalse(suggested.contains("<html"), "a fragment for the list under the box, not a page");

        String nothing = member.get("/app/search?q=babbage").body();
        assertTrue(nothing.contains("Nothing found for “babbage” in projects, tasks, tickets, contacts, companies and deals."),
                nothing);
        String empty = member.get("/app/search").body();
        assertTrue(empty.contains("Type a name, an e-mail or a few words of a title"), empty);
        assertEquals(200, member.get("/app/search?q=%20%20").status(), "a blank search asks for words");
    }

    @Test
    void aSearchThatCannotBeRunIsAReadableProblem(TestPlatform platform) {
        UUID ws = platform.createWorkspace("Engines errors");
        TestPerson member = platform.person(ws, "member");

        var tooLong = member.get("/app/search?q=" + "a".repeat(201));
        assertEquals(400, tooLong.status());
        assertTrue(tooLong.body().contains("This cannot be searched") && tooLong.body().contains("at most 200"),
                tooLong.body());
        var manyWords = member.get("/app/search?q=" + URLEncoder.encode("a b c d e f g h i j k", StandardCharsets.UTF_8));
        assertEquals(400, manyWords.status());
        assertTrue(manyWords.body().contains("more than 10 words"), manyWords.body());
        var control = member.get("/app/search?q=ada%00");
        assertEquals(400, control.status());
        assertTrue(control.body().contains("control characters"), control.body());
        var suggested = member.get("/app/search/suggestions?q=" + "a".repeat(201));
        assertEquals(200, suggested.status(), "htmx swaps only what answers 200");
        assertTrue(suggested.body().contains("This cannot be searched: see why"), suggested.body());
        assertEquals("", member.get("/app/search/suggestions?q=").body().strip(), "nothing typed, nothing suggested");
        var wildcard = member.get("/app/search?q=%25_");
        assertEquals(200, wildcard.status(), "LIKE's wildcards are searched as text: " + wildcard.body());
        assertTrue(wildcard.body().contains("Nothing found"), wildcard.body());
    }

    @Test
    void aMemberWithoutTheModulesSeesNoSourcesAndNobodySignedInIsSentToSignIn(TestPlatform platform) {
        UUID ws = platform.createWorkspace("Engines off");
        for (String module : new String[] {"issues", "projects", "crm"}) {
            var off = OperatorCli.run(platform, "workspace", "modules", "--workspace", ws.toString(), "--disable", module);
            assertEquals(0, off.exit(), module + ": " + off.err() + off.out());
        }
        String page = platform.person(ws, "member").get("/app/search?q=ada").body();
        assertTrue(page.contains("No module of this workspace offers search to your role."), page);
        var anonymous = platform.get("/app/search?q=ada", null);
        assertTrue(anonymous.status() == 303 || anonymous.status() == 302 || anonymous.status() == 401,
                "status " + anonymous.status());
    }
}
