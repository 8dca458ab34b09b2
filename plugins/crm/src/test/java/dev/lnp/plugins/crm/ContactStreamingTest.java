package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.api.sql.JsonRows;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.io.ByteArrayOutputStream;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contacts list is written from the result set straight into the response ({@link JsonRows}): every listed
 * contact must be exactly the JSON that creating it answered (mapped the other way, through a node per row), on
 * REST and through the list tool, and timestamps must render as the slow, parsing path does.
 */
@PlatformTest(plugins = "crm")
class ContactStreamingTest {

    private static String key;
    private static final Map<String, JsonNode> created = new HashMap<>();
    /** Each contact's creation answer as sent: the bytes a listed row must repeat. */
    private static final Map<String, String> createdText = new HashMap<>();

    @BeforeAll
    static void contacts(TestPlatform platform) {
        key = platform.fullAccessKey(platform.createWorkspace("contact-streaming"));
        create(platform, """
                {"email":"full@acme.com","first_name":"Łukasz \\"Luke\\"","last_name":"Ødegaard\\nYılmaz",
                 "phone":"+48 600 000 000","job_title":"Head of <Sales> & \\\\ Ops","company_name":"Acme",
                 "contact_type":"customer","status":"active","lead_source":"referral","industry":"Retail",
                 "notes":"tab\\there, emoji 🎉","tags":["vip","β-tester",""],
                 "custom_fields":{"size":12,"ratio":0.25,"nested":{"list":[1,"two",null,true]},"empty":{}},
                 "external_id":"ext-1","country":"PL","state":"Mazowieckie","city":"Warszawa",
                 "social_professional":"https://example.com/in/lukasz"}""");
        create(platform, """
                {"email":"minimal@acme.com"}""");
        create(platform, """
                {"email":"pending@acme.com","first_name":"María","status":"pending","tags":[]}""");
    }

    private static void create(TestPlatform platform, String body) {
        var response = platform.post("/api/v1/crm/contacts", key, body);
        assertEquals(201, response.status(), response.body());
        created.put(response.json().path("id").asText(), response.json());
        createdText.put(response.json().path("id").asText(), response.body());
    }

    @Test
    void restListItemsAreTheContactsAsCreated(TestPlatform platform) {
        var response = platform.get("/api/v1/crm/contacts?limit=10", key);
        assertEquals(200, response.status(), response.body());
        assertEquals(3, response.data().size(), response.body());
        for (JsonNode item : response.data()) {
            assertEquals(created.get(item.path("id").asText()), item, response.body());
        }
        JsonNode pagination = response.json().path("pagination");
        assertEquals(3, pagination.path("total").asInt());
        assertEquals(false, pagination.path("hasMore").asBoolean());
        // Filtered and paged: still the same rows, the total of the filter.
        var pending = platform.get("/api/v1/crm/contacts?status=pending&limit=1", key);
        assertEquals(1, pending.data().size());
        assertEquals(created.get(pending.data().get(0).path("id").asText()), pending.data().get(0));
        var empty = platform.get("/api/v1/crm/contacts?page=5&limit=1", key);
        assertEquals(0, empty.data().size(), empty.body());
        assertEquals(3, empty.json().path("pagination").path("total").asInt());
    }

    @Test
    void restListBodyRepeatsEachCreationAnswerByteForByte(TestPlatform platform) {
        // A tree comparison misses field order and number forms; the list's bytes must be the creation's bytes.
        for (int run = 0; run < 8; run++) {
            var response = platform.get("/api/v1/crm/contacts?limit=10", key);
            assertEquals(200, response.status(), response.body());
            List<String> items = new ArrayList<>();
            response.data().forEach(item -> items.add(createdText.get(item.path("id").asText())));
            assertTrue(response.body().startsWith("{\"data\":[" + String.join(",", items) + "],"),
                    "run " + run + ": " + response.body() + "\nexpected items " + items);
        }
        assertTrue(createdText.values().stream().anyMatch(text -> text.contains("emoji \uD83C\uDF89\"")),
                "a single answer writes the emoji as itself, not as an escaped surrogate pair: " + createdText);
    }

    @Test
    void textWrittenFromItsBytesStaysTheSameOnceTheDriverPreparesTheStatement(TestPlatform platform) {
        // pgjdbc prepares a statement on the server after five runs and may then receive columns in binary form;
        // character columns are written from their bytes either way.
        for (int run = 0; run < 8; run++) {
            var response = platform.get("/api/v1/crm/contacts?limit=10", key);
            assertEquals(200, response.status(), response.body());
            for (JsonNode item : response.data()) {
                assertEquals(created.get(item.path("id").asText()), item, "run " + run + ": " + response.body());
            }
        }
    }

    @Test
    void theListToolAnswersTheSameRowsAndNamesEveryOneRead(TestPlatform platform) throws Exception {
        ToolResult result = platform.callTool(key, "crm_list_contacts", "{\"limit\":10}");
        JsonNode tree = Json.mapper().valueToTree(result.data());
        JsonNode rest = platform.get("/api/v1/crm/contacts?limit=10", key).json();
        assertEquals(rest.path("data"), tree.path("items"));
        assertEquals(rest.path("pagination").toString(), tree.path("pagination").toString());
        List<String> ids = new ArrayList<>();
        tree.path("items").forEach(item -> ids.add(item.path("id").asText()));
        assertEquals(ids, result.entities().stream().map(e -> e.id().toString()).toList());
        assertTrue(result.entities().stream().allMatch(e -> e.type().equals("contact") && e.action().equals("read")));
        // Written as bytes (the raw copy of the buffered rows) it is the same document as through a tree.
        // (compared as text: the number nodes a parser makes differ in class from a copied token stream's)
        assertEquals(tree.toString(), Json.mapper().readTree(Json.mapper().writeValueAsBytes(result.data())).toString());
        // And a second time: the buffer stays, the result set is not read again.
        assertEquals(tree.toString(), Json.mapper().readTree(Json.mapper().writeValueAsString(result.data())).toString());
    }

    @Test
    void timestampsRenderLikeTheParsingPath(TestPlatform platform) throws Exception {
        List<String> literals = List.of("2026-11-21 13:05:01+00", "2026-11-21 13:05:00.5+00",
                "2026-11-21 13:05:00.123456+00", "2026-11-21 13:05:00.1+00", "2026-11-21 00:00:00+00",
                "0099-01-01 12:00:00.000001+00", "12345-06-07 08:09:10.25+00", "0044-03-15 12:00:00+00 BC",
                "2026-03-29 01:30:00.75+00", "1000-01-01 00:00:00+00", "9999-12-31 23:59:59.999999+00",
                "2026-11-21 13:05:01.10203+00", "1999-12-31 23:59:59.999999+00", "1969-07-20 20:17:40.5+00",
                "2000-02-29 00:00:00.000001+00", "2100-03-01 12:00:00+00", "0999-12-31 23:59:59.999999+00",
                "1000-01-01 00:00:00.000001+00", "1600-02-29 23:59:59+00", "10000-01-01 00:00:00+00");
        // Threshold 5 (the driver's default): these single runs receive text; -1: prepared on the server from the
        // first run, timestamptz received in binary, as a list query is after five runs.
        for (int threshold : List.of(5, -1)) {
            for (String zone : List.of("UTC", "Europe/Berlin", "America/St_Johns")) {
                try (Handle handle = platform.jdbi().open()) {
                    var driver = handle.getConnection().unwrap(org.postgresql.PGConnection.class);
                    int poolThreshold = driver.getPrepareThreshold();
                    driver.setPrepareThreshold(threshold);
                    handle.execute("SET TIME ZONE '" + zone + "'");
                    for (String literal : literals) {
                        OffsetDateTime expected = handle.createQuery("SELECT CAST(:t AS timestamptz)")
                                .bind("t", literal).mapTo(OffsetDateTime.class).one();
                        var out = new ByteArrayOutputStream();
                        try (JsonGenerator json = Json.mapper().createGenerator(out)) {
                            json.writeStartObject();
                            var query = handle.createQuery("SELECT CAST(:t AS timestamptz) AS at").bind("t", literal);
                            query.scanResultSet((rs, ctx) -> {
                                var set = rs.get();
                                set.next();
                                try {
                                    JsonRows.timestampField("at", set).write(set, json);
                                } catch (java.io.IOException e) {
                                    throw new java.io.UncheckedIOException(e);
                                }
                                return null;
                            });
                            json.writeEndObject();
                        }
                        String iso = DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(
                                expected.withOffsetSameInstant(ZoneOffset.UTC));
                        assertEquals(iso, Json.mapper().readTree(out.toByteArray()).path("at").asText(),
                                zone + " " + literal + " threshold " + threshold);
                    }
                    // Back to the pool as the pool made it: a later request gets this connection.
                    driver.setPrepareThreshold(poolThreshold);
                    handle.execute("RESET TIME ZONE");
                }
            }
        }
    }

    @Test
    void aCreateAndItsCounterAreOneStatementThatFailsWhole(TestPlatform platform) {
        // The contact insert carries its status counter update (one round trip): a refused insert must not count.
        String own = platform.fullAccessKey(platform.createWorkspace("contact-streaming-counts"));
        assertEquals(201, platform.post("/api/v1/crm/contacts", own, "{\"email\":\"a@count.example\",\"status\":\"pending\"}").status());
        assertEquals(201, platform.post("/api/v1/crm/contacts", own, "{\"email\":\"b@count.example\"}").status());
        var duplicate = platform.post("/api/v1/crm/contacts", own, "{\"email\":\"A@count.example\",\"status\":\"pending\"}");
        assertEquals(409, duplicate.status(), duplicate.body());
        assertEquals(2, platform.get("/api/v1/crm/contacts", own).json().path("pagination").path("total").asInt());
        assertEquals(1, platform.get("/api/v1/crm/contacts?status=pending", own).json().path("pagination").path("total").asInt());
        assertEquals(1, platform.get("/api/v1/crm/contacts?status=active", own).json().path("pagination").path("total").asInt());
    }

    @Test
    void aTotalReadWithTheRowsIsTakenFromTheFirstRowAndCountedOnlyForAnEmptyPage(TestPlatform platform)
            throws Exception {
        java.util.concurrent.atomic.AtomicInteger counted = new java.util.concurrent.atomic.AtomicInteger();
        try (Handle handle = platform.jdbi().open()) {
            JsonRows rows = JsonRows.withTotal(
                    handle.createQuery("SELECT g AS id, 7 AS page_total FROM generate_series(1, 3) g ORDER BY g"),
                    rs -> (row, json) -> json.writeNumber(row.getInt("id")), new PageRequest(1, 3),
                    () -> counted.incrementAndGet());
            assertThrows(IllegalStateException.class, rows::pagination, "unknown until the rows are written");
            assertEquals(null, rows.response().pagination(), "the platform asks the rows once they are written");
            assertEquals("[1,2,3]", Json.mapper().writeValueAsString(rows.response().data()));
            assertEquals(new Page(1, 3, 7, true), rows.pagination());
            assertEquals(0, counted.get(), "rows carried the total");

            JsonRows empty = JsonRows.withTotal(handle.createQuery("SELECT 1 AS id, 7 AS page_total WHERE false"),
                    rs -> (row, json) -> json.writeNumber(1), new PageRequest(4, 3), () -> 9 + counted.incrementAndGet());
            var tool = Json.mapper().valueToTree(empty.toolResult("contact").data());
            assertEquals(1, counted.get(), "an empty page counts once");
            assertEquals(10, tool.path("pagination").path("total").asInt(), tool.toString());
            assertEquals(0, tool.path("items").size());
            assertFalse(tool.path("pagination").path("hasMore").asBoolean());
        }
    }

    @Test
    void aBufferedToolResultIsTheSameJsonAsBytesAsTextAndAsATree(TestPlatform platform) throws Exception {
        try (Handle handle = platform.jdbi().open()) {
            var result = JsonRows.withTotal(handle.createQuery(
                            "SELECT g AS id, 'é\"' || g AS name, 2 AS page_total FROM (VALUES"
                                    + " ('00000000-0000-0000-0000-000000000001'::uuid), ('00000000-0000-0000-0000-000000000002'::uuid)) v(g)"),
                    rs -> (row, json) -> {
                        json.writeStartObject();
                        json.writeStringField("id", row.getString("id"));
                        json.writeStringField("name", row.getString("name"));
                        json.writeEndObject();
                    }, new PageRequest(1, 2), () -> 0).toolResult("contact");
            // Between other fields, so the separators around the raw bytes show.
            var around = new java.util.LinkedHashMap<String, Object>();
            around.put("before", 1);
            around.put("data", result.data());
            around.put("after", List.of(2));
            byte[] bytes = Json.mapper().writeValueAsBytes(around);
            String text = Json.mapper().writeValueAsString(around);
            var tree = Json.mapper().valueToTree(around);
            assertEquals(text, new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
            assertEquals(text, Json.mapper().writeValueAsString(tree));
            assertEquals(2, tree.path("data").path("items").size(), text);
            assertEquals("é\"00000000-0000-0000-0000-000000000002", tree.path("data").path("items").get(1).path("name").asText());
            assertEquals(2, tree.path("data").path("pagination").path("total").asInt());
            assertEquals(2, tree.path("after").get(0).asInt());
            assertEquals(text, Json.mapper().writeValueAsString(around), "written again, the same bytes");
            assertEquals(2, result.entities().size());
        }
    }

    /** A page's query runs when the handler makes its answer: its failure is the handler's, not the renderer's. */
    @Test
    void aPageWhoseQueryFailsFailsWhenTheAnswerIsMade(TestPlatform platform) {
        try (Handle handle = platform.jdbi().open()) {
            JsonRows rows = JsonRows.of(handle.createQuery("SELECT 1 / (SELECT count(*) FROM crm.contacts WHERE false)"
                    + " AS id"), rs -> (row, json) -> json.writeNumber(1), Page.of(new PageRequest(1, 50), 1));
            var failure = assertThrows(org.jdbi.v3.core.statement.UnableToExecuteStatementException.class,
                    rows::response);
            assertTrue(failure.getMessage().contains("division by zero"), failure.toString());
        }
    }

    /** The rows a handler's answer holds are written when the answer is rendered, after the query ran. */
    @Test
    void aPagesQueryRunsOnceWhenTheAnswerIsMade(TestPlatform platform) throws Exception {
        try (Handle handle = platform.jdbi().open()) {
            handle.execute("CREATE TEMPORARY SEQUENCE page_runs");
            JsonRows rows = JsonRows.of(handle.createQuery("SELECT nextval('page_runs') AS id"),
                    rs -> (row, json) -> json.writeNumber(row.getLong("id")), Page.of(new PageRequest(1, 50), 1));
            var answer = rows.response();
            assertEquals(1L, (long) handle.createQuery("SELECT currval('page_runs')").mapTo(Long.class).one(),
                    "the query ran when the answer was made");
            assertEquals("[1]", Json.mapper().writeValueAsString(answer.data()));
            assertEquals(1L, (long) handle.createQuery("SELECT currval('page_runs')").mapTo(Long.class).one(),
                    "writing the rows ran nothing again");
        }
    }

    @Test
    void rowsWrittenAfterTheirTransactionAreRefusedClearly(TestPlatform platform) {
        JsonRows rows;
        try (Handle handle = platform.jdbi().open()) {
            rows = JsonRows.of(handle.createQuery("SELECT 1 AS id"), rs -> (row, json) -> json.writeNumber(1),
                    Page.of(new PageRequest(1, 50), 1));
        }
        var failure = assertThrows(Exception.class, () -> Json.mapper().writeValueAsString(rows.response().data()));
        Throwable cause = failure;
        while (cause.getCause() != null && !(cause instanceof IllegalStateException)) {
            cause = cause.getCause();
        }
        assertTrue(cause instanceof IllegalStateException && cause.getMessage().contains("after their transaction"),
                failure.toString());
    }
}
