package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The activity timelines of contacts, companies and deals, over HTTP: what each change writes, who it names, the
 * order, the pages of older entries, and the addresses that are not there.
 */
@PlatformTest(plugins = "crm")
class CrmActivityTest {

    @Test
    void aContactsPageTellsWhatHappenedNewestFirstAndByWhom(TestPlatform platform) {
        UUID ws = platform.createWorkspace("timeline");
        String key = platform.key(ws, "contacts.write", "deals.read", "deals.write");
        UUID connection = lastConnection(platform, ws);
        String contactId = platform.post("/api/v1/crm/contacts", key,
                "{\"email\":\"ada@example.com\",\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}").json()
                .path("id").asText();
        TestPerson member = platform.person(ws, "member");
        TestPerson admin = platform.person(ws, "admin");

        assertEquals(303, member.post("/app/crm/contacts/" + contactId + "/edit", "email", "ada@example.com",
                "first_name", "Ada", "last_name", "Lovelace", "phone", "+44 20 7946", "job_title", "Analyst")
                .status());
        String dealId = platform.post("/api/v1/crm/deals", key,
                "{\"title\":\"Analytical engine\",\"value\":250000,\"currency\":\"GBP\",\"contact_id\":\"" + contactId
                        + "\"}").data().path("id").asText();
        assertEquals(303, admin.post("/app/crm/deals/" + dealId + "/move", "stage", "proposal").status());
        assertEquals(303, member.post("/app/crm/deals/" + dealId + "/move", "stage", "closed_won").status());
        assertEquals(409, member.post("/app/crm/deals/" + dealId + "/move", "stage", "negotiation").status(),
                "a refused move");

        String page = member.get("/app/crm/contacts/" + contactId).body();
        String[] newestFirst = {
                "Deal “Analytical engine” won (from Proposal)",
                "Deal “Analytical engine” moved from Discovery to Proposal",
                "Deal “Analytical engine” created in Discovery",
                "Changed phone, job title",
                "Contact created"};
        int at = -1;
        for (String sentence : newestFirst) {
            int next = page.indexOf(sentence);
            assertTrue(next > at, "'" + sentence + "' after the newer entries: " + page);
            at = next;
        }
        assertFalse(page.contains("reopened") || page.contains("to Negotiation"),
                "a refused change leaves no entry, as it leaves no change");
        String you = "<td>You</td>";
        assertTrue(page.contains(you), "the member's own changes are theirs: " + page);
        assertTrue(page.contains("<td>" + admin.email() + "</td>"), "another member by their name (here their address)");
        assertTrue(page.contains("API connection " + connection), "a key's changes name its connection");
        assertFalse(page.contains("Show older activity"), "five entries fit on the page");
        assertTrue(page.contains("<caption>Activity</caption>") || page.contains(">Activity<"), page);

        String dealPage = member.get("/app/crm/deals/" + dealId).body();
        assertTrue(dealPage.contains("Won (from Proposal)") && dealPage.contains("Moved from Discovery to Proposal")
                && dealPage.contains("Created in Discovery"), "the deal's page tells its stage moves: " + dealPage);
        assertTrue(dealPage.indexOf("Won (from Proposal)") < dealPage.indexOf("Moved from Discovery to Proposal"));

        // The outbox is purged after the webhook history period; the timeline is the CRM's own and stays.
        platform.jdbi().useHandle(h -> h.execute("DELETE FROM lnp_core.outbox"));
        assertTrue(member.get("/app/crm/contacts/" + contactId).body().contains("Contact created"));
    }

    @Test
    void olderEntriesAreAPageAway(TestPlatform platform) {
        UUID ws = platform.createWorkspace("older");
        TestPerson member = platform.person(ws, "member");
        String path = member.post("/app/crm/contacts/new", "email", "linus@example.com").location();
        for (int i = 0; i < Timeline.ON_THE_PAGE + 2; i++) {
            assertEquals(303, member.post(path + "/edit", "email", "linus@example.com", "phone", "+358 " + i)
                    .status());
        }
        String page = member.get(path).body();
        assertTrue(page.contains("href=\"" + path + "/activity\""), "Show older activity: " + page);
        assertFalse(page.contains("Contact created"), "the oldest entry is not on the contact's page");

        var first = member.get(path + "/activity?limit=5");
        assertEquals(200, first.status(), first.body());
        assertTrue(first.body().contains("<h1>Activity of linus@example.com</h1>"), first.body());
        assertTrue(first.body().contains("rel=\"next\""), "older entries follow");
        var last = member.get(path + "/activity?limit=5&page=3");
        assertTrue(last.body().contains("Contact created"), "the oldest entry is on the last page: " + last.body());
        assertFalse(last.body().contains("rel=\"next\""), last.body());
        assertEquals(2, count(last.body(), "Changed phone"),
                "12 changes and the creation, 5 a page: the third has the two oldest changes and the creation");
    }

    @Test
    void timelinesOfOtherWorkspacesOrNoRecordAreNotThere(TestPlatform platform) {
        UUID ws = platform.createWorkspace("mine");
        String key = platform.key(ws, "contacts.write", "deals.write", "companies.write");
        String contact = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"c@example.com\"}").json()
                .path("id").asText();
        String company = platform.post("/api/v1/crm/companies", key, "{\"name\":\"Acme\"}").data().path("id").asText();
        String deal = platform.post("/api/v1/crm/deals", key, "{\"title\":\"d\"}").data().path("id").asText();
        TestPerson mine = platform.person(ws, "member");
        TestPerson stranger = platform.person(platform.createWorkspace("theirs"), "member");
        for (String record : new String[] {"contacts/" + contact, "companies/" + company, "deals/" + deal}) {
            assertEquals(200, mine.get("/app/crm/" + record + "/activity").status(), record);
            assertEquals(404, stranger.get("/app/crm/" + record + "/activity").status(),
                    "another workspace's " + record + " is answered as missing");
            assertEquals(404, stranger.get("/app/crm/" + record).status());
        }
        for (String kind : new String[] {"contacts", "companies", "deals"}) {
            assertEquals(404, mine.get("/app/crm/" + kind + "/not-a-uuid/activity").status(), kind);
            assertEquals(404, mine.get("/app/crm/" + kind + "/" + UUID.randomUUID() + "/activity").status(), kind);
        }
        var badPage = mine.get("/app/crm/contacts/" + contact + "/activity?page=0");
        assertEquals(400, badPage.status(), "a page out of range is refused in words, not a server error");
        assertTrue(badPage.body().contains("give a whole number from 1"), badPage.body());
    }

    @Test
    void aCompanyListsItsDealsThroughItsContactsWithItsPipelineAndActivity(TestPlatform platform) {
        UUID ws = platform.createWorkspace("company-deals");
        String key = platform.key(ws, "contacts.write", "deals.write", "companies.write");
        String acme = platform.post("/api/v1/crm/companies", key, "{\"name\":\"Acme\"}").data().path("id").asText();
        String globex = platform.post("/api/v1/crm/companies", key, "{\"name\":\"Globex\"}").data().path("id").asText();
        String ada = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"ada@acme.example\",\"first_name\":"
                + "\"Ada\",\"company_id\":\"" + acme + "\"}").json().path("id").asText();
        deal(platform, key, "Direct", "\"company_id\":\"" + acme + "\",\"value\":12000,\"currency\":\"EUR\"");
        deal(platform, key, "Through Ada", "\"contact_id\":\"" + ada + "\",\"value\":500,\"currency\":\"USD\"");
        deal(platform, key, "On hold", "\"company_id\":\"" + acme + "\",\"status\":\"on_hold\",\"value\":1000,"
                + "\"currency\":\"EUR\"");
        deal(platform, key, "Won already", "\"company_id\":\"" + acme + "\",\"stage\":\"closed_won\","
                + "\"status\":\"closed_won\",\"value\":99000,\"currency\":\"EUR\"");
        deal(platform, key, "Globex's, with Ada", "\"company_id\":\"" + globex + "\",\"contact_id\":\"" + ada + "\"");
        String other = platform.key(platform.createWorkspace("company-deals-other"), "deals.write");
        deal(platform, other, "Foreign", "\"value\":7");

        TestPerson member = platform.person(ws, "member");
        String page = member.get("/app/crm/companies/" + acme).body();
        for (String title : new String[] {"Direct", "Through Ada", "On hold", "Won already"}) {
            assertTrue(page.contains(">" + title + "</a>"), title + " is Acme's: " + page);
        }
        assertFalse(page.contains(">Globex&#39;s, with Ada</a>") || page.contains(">Globex's, with Ada</a>"),
                "a deal naming another company is that company's");
        assertFalse(page.contains("Foreign"), page);
        assertTrue(page.contains("13,000 EUR · 500 USD in 3 open deals"),
                "open and on-hold deals per currency, the won one not: " + page);
        assertTrue(page.contains("Contact Ada created"), "the contacts' activity: " + page);
        assertTrue(page.contains("Deal “Through Ada” created in Discovery"), "their deals' activity: " + page);
        assertTrue(page.contains("Company created"), page);

        String globexPage = member.get("/app/crm/companies/" + globex).body();
        assertTrue(globexPage.contains("No open deals") || globexPage.contains("in 1 open deal"), globexPage);
        String empty = platform.post("/api/v1/crm/companies", key, "{\"name\":\"Initech\"}").data().path("id").asText();
        assertTrue(member.get("/app/crm/companies/" + empty).body().contains("No open deals"));
    }

    @Test
    void linkingADealToAnotherContactShowsOnBothTimelines(TestPlatform platform) {
        UUID ws = platform.createWorkspace("links");
        String key = platform.key(ws, "contacts.write", "deals.write");
        String ada = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"ada@example.com\",\"first_name\":\"Ada\"}")
                .json().path("id").asText();
        String bob = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"bob@example.com\",\"first_name\":\"Bob\"}")
                .json().path("id").asText();
        String deal = deal(platform, key, "Hand-over", "\"contact_id\":\"" + ada + "\"");
        assertEquals(200, platform.patch("/api/v1/crm/deals/" + deal, key,
                "{\"contact_id\":\"" + bob + "\",\"value\":10}").status());
        TestPerson member = platform.person(ws, "member");
        assertTrue(member.get("/app/crm/contacts/" + ada).body().contains("Deal “Hand-over” no longer linked to Ada"));
        String bobs = member.get("/app/crm/contacts/" + bob).body();
        assertTrue(bobs.contains("Deal “Hand-over” linked to Bob"), bobs);
        assertTrue(bobs.contains("Deal “Hand-over” changed: value"), "the other fields in one entry: " + bobs);
        assertFalse(bobs.contains("changed: contact"), "the link has its own entry");

        String assistant = platform.key(ws, "contacts.write", "mcp.use");
        platform.callTool(assistant, "crm_update_contact", "{\"id\":\"" + bob + "\",\"job_title\":\"Buyer\"}");
        String afterTool = member.get("/app/crm/contacts/" + bob).body().replaceAll(">\\s+<", "><");
        assertTrue(afterTool.contains("<td>Changed job title</td><td>API connection " + lastConnection(platform, ws)),
                "a tool's change is its connection's: " + afterTool);

        assertEquals(200, platform.delete("/api/v1/crm/deals/" + deal, key).status());
        assertTrue(member.get("/app/crm/contacts/" + bob).body().contains("Deal “Hand-over” deleted"),
                "a deleted deal is still told of");
    }

    private static String deal(TestPlatform platform, String key, String title, String more) {
        var created = platform.post("/api/v1/crm/deals", key, "{\"title\":\"" + title + "\"," + more + "}");
        assertEquals(201, created.status(), created.body());
        return created.data().path("id").asText();
    }

    private static UUID lastConnection(TestPlatform platform, UUID ws) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT id FROM lnp_core.connections WHERE workspace_id = :ws ORDER BY created_at DESC LIMIT 1")
                .bind("ws", ws).mapTo(UUID.class).one());
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) n++;
        return n;
    }
}
