package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The CRM's pages in the workspace application, over HTTP as a signed-in person. */
@PlatformTest(plugins = "crm")
class CrmPagesTest {

    @Test
    void contactsAreListedFilteredSortedAndOpened(TestPlatform platform) {
        UUID ws = platform.createWorkspace("contacts-pages");
        String key = platform.key(ws, "contacts.read", "contacts.write", "deals.write");
        platform.post("/api/v1/crm/contacts", key, """
                {"email":"ada@example.com","first_name":"Ada","last_name":"Lovelace","contact_type":"customer","tags":["vip"]}""");
        String grace = platform.post("/api/v1/crm/contacts", key, """
                {"email":"grace@example.com","first_name":"Grace","last_name":"Hopper","contact_type":"lead","status":"pending"}""")
                .body();
        String graceId = dev.lnp.api.Json.parse(grace).path("id").asText();
        platform.post("/api/v1/crm/deals", key, "{\"title\":\"Compiler licence\",\"contact_id\":\"" + graceId + "\"}");
        TestPerson member = platform.person(ws, "member");

        String all = member.get("/app/crm/contacts").body();
        assertTrue(all.contains(">Ada Lovelace</a>") && all.contains(">Grace Hopper</a>"), all);
        String byName = member.get("/app/crm/contacts?sort=name").body();
        assertTrue(byName.indexOf("Grace Hopper") < byName.indexOf("Ada Lovelace"), "Hopper before Lovelace");
        String byNameDesc = member.get("/app/crm/contacts?sort=-name").body();
        assertTrue(byNameDesc.indexOf("Ada Lovelace") < byNameDesc.indexOf("Grace Hopper"));
        String leads = member.get("/app/crm/contacts?type=lead").body();
        assertTrue(leads.contains("Grace Hopper") && !leads.contains("Ada Lovelace"), leads);
        String vip = member.get("/app/crm/contacts?tag=vip").body();
        assertTrue(vip.contains("Ada Lovelace") && !vip.contains("Grace Hopper"), vip);
        String found = member.get("/app/crm/contacts?search=hopp&status=pending").body();
        assertTrue(found.contains("Grace Hopper") && !found.contains("Ada Lovelace"), found);

        String page = member.get("/app/crm/contacts/" + graceId).body();
        assertTrue(page.contains("<h1>Grace Hopper</h1>"), page);
        assertTrue(page.contains(">Compiler licence</a>"), "the contact's deals are on their page");

        UUID other = platform.createWorkspace("other");
        assertEquals(404, platform.person(other, "member").get("/app/crm/contacts/" + graceId).status(),
                "another workspace's contact is not there");
        assertEquals(404, member.get("/app/crm/contacts/not-a-uuid").status());
        var tooManyWords = member.get("/app/crm/contacts?search=a+b+c+d+e+f+g+h+i+j+k");
        assertEquals(400, tooManyWords.status(), "a readable refusal, not a server error: " + tooManyWords.body());
        assertTrue(tooManyWords.body().contains("search has more than 10 words."), tooManyWords.body());
        assertTrue(tooManyWords.body().contains("<a class=\"button\" href=\"/app\">Back to the application</a>"),
                "a refusal in the application leads back to it: " + tooManyWords.body());
        assertEquals(200, member.get("/app/crm/contacts?sort=nonsense&type=nonsense&page=2").status(),
                "an unknown order or type is the default order and an empty list");
    }

    @Test
    void contactsAreCreatedEditedAndDeletedThroughTheApisRules(TestPlatform platform) {
        UUID ws = platform.createWorkspace("contacts-forms");
        String key = platform.key(ws, "contacts.read");
        TestPerson member = platform.person(ws, "member");

        var invalid = member.post("/app/crm/contacts/new", "email", "not an address");
        assertEquals(400, invalid.status(), "the API's own schema checks the form");
        assertTrue(invalid.body().contains("not an address"), "what was typed is kept");
        var created = member.post("/app/crm/contacts/new", "email", "linus@example.com", "first_name", "Linus",
                "phone", "+358 9 123");
        assertEquals(303, created.status(), created.body());
        String path = created.location();
        assertTrue(member.get(path).body().contains("Contact Linus created."));

        var duplicate = member.post("/app/crm/contacts/new", "email", "LINUS@example.com");
        assertEquals(409, duplicate.status());
        assertTrue(duplicate.body().contains("already exists"), duplicate.body());

        // A browser posts every field of the form: the changed last name, the emptied phone, the rest as they were.
        var saved = member.post(path + "/edit", "email", "linus@example.com", "first_name", "Linus",
                "last_name", "Torvalds", "phone", "");
        assertEquals(303, saved.status(), saved.body());
        var listed = platform.get("/api/v1/crm/contacts", key);
        var contact = listed.json().path("data").path(0);
        assertEquals("Torvalds", contact.path("last_name").asText(), listed.body());
        assertEquals("Linus", contact.path("first_name").asText(), "fields the form left alone keep their values");
        assertEquals("", contact.path("phone").asText(""), "an emptied field is cleared");
        var unchanged = member.post(path + "/edit", "email", "linus@example.com", "first_name", "Linus",
                "last_name", "Torvalds", "phone", "");
        assertTrue(member.get(unchanged.location()).body().contains("Nothing was changed."));

        var deleted = member.post(path + "/delete");
        assertEquals(303, deleted.status(), deleted.body());
        assertEquals(0, platform.get("/api/v1/crm/contacts", key).json().path("pagination").path("total").asInt());
        assertEquals(404, member.get(path).status());
    }

    @Test
    void codedValuesReadAsWordsWhileAddressesAndFormsKeepTheValues(TestPlatform platform) {
        UUID ws = platform.createWorkspace("crm-words");
        String key = platform.key(ws, "contacts.write", "deals.write");
        String ada = dev.lnp.api.Json.parse(platform.post("/api/v1/crm/contacts", key, """
                {"email":"ada@example.com","first_name":"Ada","contact_type":"customer","status":"pending"}""")
                .body()).path("id").asText();
        String won = platform.post("/api/v1/crm/deals", key, """
                {"title":"Engine","stage":"closed_won","status":"closed_won","contact_id":"%s"}""".formatted(ada))
                .data().path("id").asText();
        platform.post("/api/v1/crm/deals", key, "{\"title\":\"Loom\",\"status\":\"on_hold\"}");
        TestPerson member = platform.person(ws, "member");

        String contacts = member.get("/app/crm/contacts?type=customer").body();
        assertTrue(contacts.contains("<td>Customer</td>") && contacts.contains("<td>Pending</td>"), contacts);
        assertTrue(contacts.contains("<option value=\"customer\" selected>Customer</option>"),
                "the filter keeps the value in the address and shows the word: " + contacts);
        String contact = member.get("/app/crm/contacts/" + ada).body();
        assertTrue(contact.contains("<dd>Customer</dd>") && contact.contains("<dd>Pending</dd>"), contact);
        assertTrue(contact.contains("<td>Closed won</td>"), "the contact's deals, in words: " + contact);

        String deals = member.get("/app/crm/deals?status=on_hold").body();
        assertTrue(deals.contains("<td>On hold</td>") && deals.contains("<td>Discovery</td>"), deals);
        assertTrue(deals.contains("value=\"on_hold\" checked> On hold</label>"), deals);
        assertTrue(deals.contains("value=\"closed_won\"> Closed won</label>"), deals);
        String deal = member.get("/app/crm/deals/" + won).body();
        assertTrue(deal.contains("<dt>Stage</dt><dd>Closed won</dd>") && deal.contains("<dt>Status</dt><dd>Closed won</dd>"),
                deal);
        assertFalse(deal.contains(">closed_won<"), deal);
        String form = member.get("/app/crm/deals/" + won + "/edit").body();
        assertTrue(form.contains("<option value=\"closed_won\" selected>Closed won</option>"), form);
        assertTrue(form.contains("<option value=\"on_hold\">On hold</option>"), form);
        String board = member.get("/app/crm/pipeline").body();
        assertTrue(board.contains("Closed won") && !board.contains(">closed_won<"), board);
    }

    @Test
    void everyCodedValueOfTheCrmHasItsWords() {
        for (String field : java.util.List.of("stage", "status")) {
            assertEquals(java.util.List.of(), dev.lnp.api.pages.EnumLabels.unlabelled(CrmLabels.DEAL, field), field);
        }
        for (String field : java.util.List.of("status", "contact_type")) {
            assertEquals(java.util.List.of(), dev.lnp.api.pages.EnumLabels.unlabelled(CrmLabels.CONTACT, field), field);
        }
    }

    @Test
    void aDealMovesOnTheBoardByTheTransitionRules(TestPlatform platform) {
        UUID ws = platform.createWorkspace("board");
        String key = platform.key(ws, "deals.read", "deals.write");
        String id = platform.post("/api/v1/crm/deals", key, "{\"title\":\"Robot arms\",\"value\":12000,\"currency\":\"EUR\"}")
                .data().path("id").asText();
        TestPerson member = platform.person(ws, "member");

        String board = member.get("/app/crm/pipeline").body();
        assertTrue(board.contains("Robot arms"), board);
        assertTrue(board.contains("1 deal · 12,000"), "a lane shows its count and value");

        var moved = member.post("/app/crm/deals/" + id + "/move", "stage", "closed_won");
        assertEquals(303, moved.status(), moved.body());
        assertTrue(member.get(moved.location()).body().contains("Deal Robot arms moved to Closed won."));
        assertEquals("closed_won", platform.get("/api/v1/crm/deals/" + id, key).data().path("status").asText(),
                "a closed stage closes the deal, as a PATCH does");

        var refused = member.post("/app/crm/deals/" + id + "/move", "stage", "proposal");
        assertEquals(409, refused.status(), "a won deal does not drift back into the pipeline");
        assertTrue(refused.body().contains("reopen it explicitly"), refused.body());
        assertFalse(refused.body().contains("Exception"), refused.body());

        var unknown = member.post("/app/crm/deals/" + id + "/move", "stage", "lunch");
        assertEquals(400, unknown.status(), "a stage outside the schema is refused");
    }

    @Test
    void aContactsCompanyIsChosenByNameAndALongListNarrowsWhileTyping(TestPlatform platform) {
        UUID ws = platform.createWorkspace("company-choices");
        String key = platform.key(ws, "companies.write", "contacts.write");
        for (int i = 1; i <= 40; i++) {
            platform.post("/api/v1/crm/companies", key, "{\"name\":\"Company " + (i < 10 ? "0" : "") + i + "\"}");
        }
        String zebra = platform.post("/api/v1/crm/companies", key, "{\"name\":\"Zebra Works\",\"domain\":\"zebra.example\"}")
                .data().path("id").asText();
        UUID other = platform.createWorkspace("company-choices-other");
        String foreign = platform.post("/api/v1/crm/companies", platform.key(other, "companies.write"),
                "{\"name\":\"Elsewhere Ltd\"}").data().path("id").asText();
        TestPerson member = platform.person(ws, "member");

        String form = member.get("/app/crm/contacts/new").body();
        assertTrue(form.contains("<option value=\"" + zebra + "\">Zebra Works (zebra.example)</option>"), form);
        assertTrue(form.contains("<option value=\"\" selected>No company</option>"), form);
        assertTrue(form.contains("<label for=\"f-company_id\">Company <span"), "the record, not its id: " + form);
        assertFalse(form.contains("Elsewhere Ltd"), "another workspace's companies are not offered");
        assertTrue(form.contains("data-choice-search hidden") && form.contains(
                "hx-get=\"/app/_choices?path=%2Fapp%2Fcrm%2Fcontacts%2Fnew&amp;field=company_id\""),
                "more than 30: a search box, shown with script, narrows the list: " + form);

        String narrowed = member.get("/app/_choices?path=%2Fapp%2Fcrm%2Fcontacts%2Fnew&field=company_id&q=ZEB").body();
        assertTrue(narrowed.contains("<option value=\"" + zebra + "\">Zebra Works (zebra.example)</option>"), narrowed);
        assertFalse(narrowed.contains("Company 01"), narrowed);
        assertTrue(narrowed.contains("No company"), "nothing stays a choice");
        String none = member.get("/app/_choices?path=%2Fapp%2Fcrm%2Fcontacts%2Fnew&field=company_id&q=nothing+like+it")
                .body();
        assertTrue(none.contains("No company") && !none.contains("Zebra"), none);
        assertEquals(404, member.get("/app/_choices?path=%2Fapp%2Fnowhere&field=company_id&q=a").status());
        assertEquals(404, member.get("/app/_choices?path=%2F%2Fevil.example&field=company_id").status());
        String outsider = platform.person(other, "member")
                .get("/app/_choices?path=%2Fapp%2Fcrm%2Fcontacts%2Fnew&field=company_id&q=").body();
        assertTrue(outsider.contains("Elsewhere Ltd") && !outsider.contains("Zebra"),
                "each person gets their own workspace's records: " + outsider);

        var refused = member.post("/app/crm/contacts/new", "email", "ann@example.com", "company_id", foreign);
        assertEquals(422, refused.status(), refused.body());
        assertTrue(refused.body().contains("company_id does not name a company of this workspace"), refused.body());
        assertTrue(refused.body().contains(foreign + " (not one of the choices)</option>"), refused.body());
        var created = member.post("/app/crm/contacts/new", "email", "ann@example.com", "company_id", zebra);
        assertEquals(303, created.status(), created.body());
        assertTrue(member.get(created.location()).body().contains("Zebra Works"));
    }
}
