package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.events.StatementEvent;
import dev.lnp.api.http.PageRequest;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.SqlStatement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A workspace of 100,000 contacts: totals come from the counters, pages come off the ordering indexes, and
 * search is answered by the trigram index. The first 3,000 contacts go through the repository, so its own
 * counter maintenance is what the totals check; the rest are bulk-loaded in SQL with the counters adjusted in
 * the same transaction, as an import would, so that the planner sees a realistic table.
 */
@PlatformTest(plugins = "crm")
class ContactScaleTest {

    private static final int SEEDED = 3000;
    private static final int CONTACTS = 100_000;
    private static final List<String> STATUSES = List.of("active", "inactive", "blocked", "pending");
    /** Who the seeded contacts were created by: their activity entries are written as in a request. */
    private static final Actor SEEDER = Actor.member(UUID.randomUUID());
    /** Seeding writes no outbox rows: the step selects a size of 0 instead of inserting an event. */
    private static final StatementEvent NO_EVENT = new StatementEvent() {
        @Override
        public String step(String source, String payloadSql) {
            return "SELECT 0 AS " + SIZE_COLUMN + " FROM " + source;
        }

        @Override
        public <S extends SqlStatement<S>> S bind(S statement) {
            return statement;
        }

        @Override
        public <T> RowMapper<T> checked(RowMapper<T> rows) {
            return rows;
        }
    };
    private static UUID workspace;
    private static String key;

    @BeforeAll
    static void seed(TestPlatform platform) {
        workspace = platform.createWorkspace("scale");
        key = platform.key(workspace, "contacts.read");
        UUID other = platform.createWorkspace("scale-other");
        platform.jdbi().useTransaction(h -> {
            var contacts = new ContactRepository(h, workspace);
            for (int i = 0; i < SEEDED; i++) {
                ObjectNode contact = Json.object();
                contact.put("email", "person" + i + "@seed.com");
                contact.put("first_name", "Person");
                contact.put("last_name", i % 600 == 0 ? "Zanzibar" : "Number " + i);
                contact.put("company_name", "Company " + (i % 50));
                contact.put("status", STATUSES.get(i % 4));
                contacts.insert(contact, NO_EVENT, SEEDER);
            }
            h.createUpdate("""
                            INSERT INTO crm.contacts (workspace_id, email, first_name, last_name, company_name, status)
                            SELECT :ws, 'bulk' || i || '@seed.com', 'Bulk', 'Number ' || i, 'Company ' || (i % 50),
                                   (ARRAY['active', 'inactive', 'blocked', 'pending'])[i % 4 + 1]
                              FROM generate_series(:from, :to) AS i
                            """).bind("ws", workspace).bind("from", SEEDED).bind("to", CONTACTS - 1).execute();
            h.createUpdate("""
                            INSERT INTO crm.contact_counts (workspace_id, status, stripe, n)
                            SELECT :ws, status, 0, :each FROM unnest(ARRAY['active', 'inactive', 'blocked', 'pending']) AS status
                            ON CONFLICT (workspace_id, status, stripe) DO UPDATE SET n = contact_counts.n + EXCLUDED.n
                            """).bind("ws", workspace).bind("each", (CONTACTS - SEEDED) / 4).execute();
            var others = new ContactRepository(h, other);
            for (int i = 0; i < 100; i++) {
                others.insert(Json.object().put("email", "other" + i + "@seed.com").put("last_name", "Zanzibar"), NO_EVENT, SEEDER);
            }
        });
        platform.jdbi().useHandle(h -> h.execute("VACUUM ANALYZE crm.contacts"));
    }

    private static JsonNode pagination(TestPlatform platform, String query) {
        var response = platform.get("/api/v1/crm/contacts" + query, key);
        assertEquals(200, response.status(), response.body());
        return response.json().path("pagination");
    }

    @Test
    void totalsAreExactWithAndWithoutStatusFilters(TestPlatform platform) {
        assertEquals(CONTACTS, pagination(platform, "").path("total").asInt());
        assertEquals(CONTACTS / 4, pagination(platform, "?status=blocked").path("total").asInt());
        assertEquals(CONTACTS / 2, pagination(platform, "?status=active&status=pending&page=7").path("total").asInt());
        assertEquals(5, pagination(platform, "?search=zanzibar").path("total").asInt());
        assertEquals(5, pagination(platform, "?search=person+ZANZÍBAR").path("total").asInt());
        long counted = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM crm.contacts WHERE workspace_id = :ws AND status = 'inactive'")
                .bind("ws", workspace).mapTo(Long.class).one());
        assertEquals(counted, pagination(platform, "?status=inactive").path("total").asLong());
    }

    @Test
    void deepPagesAreFullStableAndEndExactly(TestPlatform platform) {
        var last = platform.get("/api/v1/crm/contacts?limit=100&page=1000", key);
        assertEquals(100, last.data().size());
        assertFalse(last.json().path("pagination").path("hasMore").asBoolean());
        assertEquals(CONTACTS, last.json().path("pagination").path("total").asInt());
        assertEquals(0, platform.get("/api/v1/crm/contacts?limit=100&page=1001", key).data().size());

        var page10 = platform.get("/api/v1/crm/contacts?limit=100&page=970", key).data();
        var page11 = platform.get("/api/v1/crm/contacts?limit=100&page=971", key).data();
        String lastOf10 = page10.get(99).path("created_at").asText() + page10.get(99).path("id").asText();
        String firstOf11 = page11.get(0).path("created_at").asText() + page11.get(0).path("id").asText();
        assertTrue(lastOf10.compareTo(firstOf11) > 0, "newest first, id breaking ties, across pages");
        assertTrue(pagination(platform, "?limit=100&page=999").path("hasMore").asBoolean());
    }

    @Test
    void searchIsAnsweredByTheTrigramIndex(TestPlatform platform) throws InterruptedException {
        long before = trigramIndexScans(platform);
        var response = platform.get("/api/v1/crm/contacts?search=zanzibar", key);
        assertEquals(5, response.json().path("pagination").path("total").asInt(), response.body());
        long deadline = System.nanoTime() + 15_000_000_000L;
        long after = trigramIndexScans(platform);
        while (after <= before && System.nanoTime() < deadline) {
            Thread.sleep(200); // a backend publishes its statistics shortly after going idle
            after = trigramIndexScans(platform);
        }
        assertTrue(after > before, "the search request scanned contacts_search_trgm");

        // The candidates come from the index; the rows are then read by id, under row-level security.
        var query = new ContactQuery(SearchWords.of("zanzibar", "?search"), List.of(), new PageRequest(1, 50));
        String plan = explain(platform, ContactRepository.pageSql(query), query);
        assertTrue(plan.contains("contact_search_candidates") && plan.contains("contacts_pkey"), plan);
    }

    private static long trigramIndexScans(TestPlatform platform) {
        return platform.jdbi().withHandle(h -> {
            h.execute("SELECT pg_stat_clear_snapshot()");
            return h.createQuery("""
                    SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes
                     WHERE schemaname = 'crm' AND indexrelname = 'contacts_search_trgm'
                    """).mapTo(Long.class).one();
        });
    }

    @Test
    void pagesAreReadOffTheOrderingIndexesAndTotalsOffTheCounters(TestPlatform platform) {
        var all = new ContactQuery(List.of(), List.of(), new PageRequest(900, 100));
        String plan = explain(platform, ContactRepository.pageSql(all), all);
        assertTrue(plan.contains("using contacts_recent"), plan);
        assertFalse(plan.contains("Seq Scan"), plan);
        var blocked = new ContactQuery(List.of(), List.of("blocked"), new PageRequest(5, 100));
        String statusPlan = explain(platform, ContactRepository.pageSql(blocked), blocked);
        assertTrue(statusPlan.contains("contacts_status_recent"), statusPlan);
        assertFalse(statusPlan.contains("Seq Scan"), statusPlan);
        String totalPlan = explain(platform, ContactRepository.totalSql(blocked), blocked);
        assertTrue(totalPlan.contains("contact_counts") && !totalPlan.contains("on contacts"), totalPlan);
    }

    @Test
    void aPageStatementKeepsOnePlan(TestPlatform platform) {
        // One connection serving page after page, as a pooled one does: pgjdbc prepares the statement on the server
        // from its fifth run, and PostgreSQL plans five runs on their own before it may keep a generic plan. With
        // LIMIT and OFFSET bound it planned every run anew (generic_plans stayed 0).
        var query = new ContactQuery(List.of(), List.of(), new PageRequest(1, 50));
        String sql = ContactRepository.pageSql(query);
        List<List<Long>> plans = platform.jdbi().withHandle(h -> {
            for (int run = 0; run < 20; run++) {
                h.useTransaction(tx -> {
                    asTenant(tx);
                    assertEquals(50, tx.createQuery(sql).bind("workspace_id", workspace)
                            .bindArray("statuses", String.class, List.of()).mapToMap().list().size());
                });
            }
            return h.createQuery("""
                    SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%WITH page AS%'
                    """).map((rs, ctx) -> List.of(rs.getLong(1), rs.getLong(2))).list();
        });
        assertEquals(1, plans.size(), "the page statement is prepared on the server: " + plans);
        assertTrue(plans.get(0).get(0) >= 5 && plans.get(0).get(1) <= 5, "generic, then custom plans: " + plans);
    }

    /** The plan of one of the repository's statements, as a request would run it (tenant role, RLS on). */
    private static String explain(TestPlatform platform, String sql, ContactQuery query) {
        return platform.jdbi().inTransaction(h -> {
            asTenant(h);
            var statement = ContactRepository.bindFilters(h.createQuery("EXPLAIN " + sql), workspace, query);
            return String.join("\n", statement.mapTo(String.class).list());
        });
    }

    private static void asTenant(Handle h) {
        h.createQuery("SELECT set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true)")
                .bind("ws", workspace.toString()).mapTo(String.class).list();
    }
}
