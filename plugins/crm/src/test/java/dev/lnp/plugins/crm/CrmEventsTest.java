package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every change writes its event to the outbox in the change's own transaction; a failed change writes none. */
// The outbox row's xmin names the transaction that wrote it only until a webhook dispatcher marks the row
// dispatched (a new row version); this platform does not dispatch.
@PlatformTest(plugins = "crm", config = "lnp.webhooks.dispatch=false")
class CrmEventsTest {

    private static UUID workspace;
    private static String key;

    @BeforeAll
    static void keys(TestPlatform platform) {
        workspace = platform.createWorkspace("events");
        key = platform.fullAccessKey(workspace);
    }

    private record Event(String name, JsonNode payload, long xid) {
    }

    /** The events about one entity, oldest first, with the transaction that wrote each. */
    private static List<Event> eventsAbout(TestPlatform platform, String id) {
        return platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT event_name, payload::text, xmin::text::bigint FROM lnp_core.outbox
                         WHERE workspace_id = :ws AND payload->>'id' = :id ORDER BY seq
                        """).bind("ws", workspace).bind("id", id)
                .map((rs, ctx) -> new Event(rs.getString(1), Json.parse(rs.getString(2)), rs.getLong(3))).list());
    }

    private static long outboxRows(TestPlatform platform) {
        return platform.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM lnp_core.outbox WHERE workspace_id = :ws")
                .bind("ws", workspace).mapTo(Long.class).one());
    }

    private static long xminOf(TestPlatform platform, String table, String id) {
        return platform.jdbi().withHandle(h -> h.createQuery("SELECT xmin::text::bigint FROM " + table + " WHERE id = :id")
                .bind("id", UUID.fromString(id)).mapTo(Long.class).one());
    }

    @Test
    void everyEventIsRegisteredWithAPayloadSchemaAndItsShortAlias(TestPlatform platform) {
        var registry = platform.platform().registry();
        for (String entity : List.of("contact", "deal", "company")) {
            for (String action : List.of("created", "updated", "deleted")) {
                String name = "crm." + entity + "." + action;
                assertEquals(name, registry.canonicalEvent(entity + "." + action).orElseThrow());
                var type = registry.contributionsOf("crm").orElseThrow().events().stream()
                        .filter(e -> e.name().equals(name)).findFirst().orElseThrow();
                assertEquals("object", type.payloadSchema().path("type").asText(), name);
            }
        }
    }

    @Test
    void contactEventsCarryTheContactAndShareTheTransactionOfTheChange(TestPlatform platform) {
        var created = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"evented@example.com\"}").json();
        String id = created.path("id").asText();
        List<Event> events = eventsAbout(platform, id);
        assertEquals(1, events.size());
        assertEquals("crm.contact.created", events.get(0).name());
        assertEquals(created, events.get(0).payload());
        assertEquals(xminOf(platform, "crm.contacts", id), events.get(0).xid(), "same transaction as the insert");

        platform.callTool(key, "crm_update_contact", "{\"id\":\"" + id + "\",\"city\":\"Lyon\"}");
        Event updated = eventsAbout(platform, id).get(1);
        assertEquals("crm.contact.updated", updated.name());
        assertEquals("Lyon", updated.payload().path("city").asText());
        assertEquals(xminOf(platform, "crm.contacts", id), updated.xid(), "same transaction as the update");

        platform.callTool(key, "crm_delete_contact", "{\"id\":\"" + id + "\"}");
        Event deleted = eventsAbout(platform, id).get(2);
        assertEquals("crm.contact.deleted", deleted.name());
        assertEquals("evented@example.com", deleted.payload().path("email").asText());
    }

    @Test
    void theCreatedEventWrittenByTheInsertIsTheContactAsAnsweredWithEveryField(TestPlatform platform) {
        String company = platform.post("/api/v1/crm/companies", key, "{\"name\":\"Acme\"}").data().path("id").asText();
        var created = platform.post("/api/v1/crm/contacts", key, """
                {"email":"every.field@example.com","first_name":"Zoë","last_name":"O'Brien \\\\ \\"Q\\"","phone":"+33 1",
                 "job_title":"CTO","company_id":"%s","company_name":"Acme","contact_type":"lead","status":"inactive",
                 "lead_source":"web","industry":"tools","notes":"line\\nbreak \\u00e9 \\t tab","tags":["a","b c",""],
                 "custom_fields":{"n":1.50,"big":12345678901234567890,"nested":{"x":[true,null,"y"]},"s":"ü"},
                 "external_id":"ext-1","country":"FR","state":"IDF","city":"Paris","social_professional":"in/zoe"}
                """.formatted(company));
        assertEquals(201, created.status(), created.body());
        List<Event> events = eventsAbout(platform, created.json().path("id").asText());
        assertEquals(created.json(), events.get(0).payload());

        var bare = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"bare@example.com\"}").json();
        assertEquals(bare, eventsAbout(platform, bare.path("id").asText()).get(0).payload());
    }

    @Test
    void timestampsInTheEventSqlAreWrittenAsTheApiWritesThem(TestPlatform platform) {
        for (String time : List.of("2026-11-23 21:18:53+00", "2026-11-23 21:18:53.1+00", "2026-11-23 21:18:53.120+00",
                "2026-11-23 21:18:53.000001+00", "2026-11-23 23:59:59.999999+02", "1999-01-02 03:04:05.123456-05")) {
            String sql = platform.jdbi().withHandle(h -> h.createQuery("SELECT "
                            + EntityTable.timestampSql("t") + " FROM (SELECT CAST(:t AS timestamptz) AS t) AS x")
                    .bind("t", time).mapTo(String.class).one());
            String java = platform.jdbi().withHandle(h -> h.createQuery("SELECT CAST(:t AS timestamptz)")
                    .bind("t", time).map((rs, ctx) -> EntityTable.timestamp(rs, 1)).one());
            assertEquals(java, sql, time);
        }
    }

    @Test
    void dealEventsFollowCreateUpdateAndDelete(TestPlatform platform) {
        String id = platform.post("/api/v1/crm/deals", key, "{\"title\":\"Evented\"}").data().path("id").asText();
        assertEquals(xminOf(platform, "crm.deals", id), eventsAbout(platform, id).get(0).xid());
        platform.patch("/api/v1/crm/deals/" + id, key, "{\"stage\":\"proposal\"}");
        assertEquals(xminOf(platform, "crm.deals", id), eventsAbout(platform, id).get(1).xid());
        platform.delete("/api/v1/crm/deals/" + id, key);
        assertEquals(List.of("crm.deal.created", "crm.deal.updated", "crm.deal.deleted"),
                eventsAbout(platform, id).stream().map(Event::name).toList());
        assertEquals("proposal", eventsAbout(platform, id).get(2).payload().path("stage").asText());
    }

    @Test
    void companyEventsCarryTheCompanyAndShareTheTransactionOfTheChange(TestPlatform platform) {
        var created = platform.post("/api/v1/crm/companies", key, "{\"name\":\"Evented Inc\",\"employees\":12}")
                .data();
        String id = created.path("id").asText();
        assertEquals(created, eventsAbout(platform, id).get(0).payload());
        assertEquals(xminOf(platform, "crm.companies", id), eventsAbout(platform, id).get(0).xid());
        var updated = platform.patch("/api/v1/crm/companies/" + id, key, "{\"city\":\"Lyon\"}").data();
        assertEquals(updated, eventsAbout(platform, id).get(1).payload());
        assertEquals(xminOf(platform, "crm.companies", id), eventsAbout(platform, id).get(1).xid());
        platform.callTool(key, "crm_update_company", "{\"id\":\"" + id + "\",\"employees\":13}");
        platform.delete("/api/v1/crm/companies/" + id, key);
        List<Event> events = eventsAbout(platform, id);
        assertEquals(List.of("crm.company.created", "crm.company.updated", "crm.company.updated", "crm.company.deleted"),
                events.stream().map(Event::name).toList());
        assertEquals(13, events.get(3).payload().path("employees").asInt(), "the deleted event carries the last state");

        long before = outboxRows(platform);
        assertEquals(201, platform.post("/api/v1/crm/companies", key, "{\"name\":\"a\",\"domain\":\"dup.example\"}")
                .status());
        assertEquals(409, platform.post("/api/v1/crm/companies", key, "{\"name\":\"b\",\"domain\":\"DUP.example\"}")
                .status());
        assertEquals(before + 1, outboxRows(platform), "the refused duplicate wrote no event");
    }

    @Test
    void aFailedWriteLeavesNoEventAndNoCounterChange(TestPlatform platform) {
        assertEquals(201, platform.post("/api/v1/crm/contacts", key, "{\"email\":\"once@example.com\"}").status());
        long events = outboxRows(platform);
        long total = platform.get("/api/v1/crm/contacts", key).json().path("pagination").path("total").asLong();

        assertEquals(409, platform.post("/api/v1/crm/contacts", key, "{\"email\":\"ONCE@example.com\"}").status());
        assertEquals(422, platform.post("/api/v1/crm/deals", key,
                "{\"title\":\"x\",\"contact_id\":\"" + UUID.randomUUID() + "\"}").status());
        String deal = platform.post("/api/v1/crm/deals", key, "{\"title\":\"won\",\"status\":\"closed_won\"}")
                .data().path("id").asText();
        events++;
        assertEquals(409, platform.patch("/api/v1/crm/deals/" + deal, key, "{\"status\":\"closed_lost\"}").status());
        assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_create_contact", "{\"email\":\"once@example.com\"}"));

        assertEquals(events, outboxRows(platform));
        assertEquals(total, platform.get("/api/v1/crm/contacts", key).json().path("pagination").path("total").asLong());
        assertTrue(platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT sum(n) FROM crm.contact_counts WHERE workspace_id = :ws AND status = 'active'")
                .bind("ws", workspace).mapTo(Long.class).one()) == total);
    }
}
