package dev.lnp.plugins.crm;

import static dev.lnp.plugins.crm.Problems.assertNames;
import static dev.lnp.plugins.crm.Problems.repeat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Deal create, get, patch and delete: field rules, shapes, states and workspace boundaries. */
@PlatformTest(plugins = "crm")
class DealTest {

    private static UUID workspace;
    private static String key;
    private static String otherKey;

    @BeforeAll
    static void workspaces(TestPlatform platform) {
        workspace = platform.createWorkspace("deals");
        key = platform.key(workspace, "deals.read", "deals.write", "contacts.read", "contacts.write");
        otherKey = platform.key(platform.createWorkspace("deals-other"), "deals.read", "deals.write",
                "contacts.write");
    }

    private static String with(String field, String value) {
        ObjectNode body = Json.object();
        body.put("title", "Rule deal");
        body.set(field, Json.parse(value));
        return body.toString();
    }

    private static String text(int length) {
        return '"' + repeat('x', length) + '"';
    }

    static Stream<Arguments> brokenRules() {
        String tooManyTags = "[" + String.join(",", IntStream.range(0, 51).mapToObj(i -> "\"t" + i + "\"").toList()) + "]";
        return Stream.of(
                Arguments.of("title is required", "{\"value\":10}", "/title"),
                Arguments.of("title is not empty", with("title", "\"\""), "/title"),
                Arguments.of("title max 255", with("title", text(256)), "/title"),
                Arguments.of("title is a string", with("title", "5"), "/title"),
                Arguments.of("value is a number", with("value", "\"100\""), "/value"),
                Arguments.of("value is not negative", with("value", "-1"), "/value"),
                Arguments.of("value max 10^15", with("value", "1000000000000001"), "/value"),
                Arguments.of("currency is three uppercase letters", with("currency", "\"eur\""), "/currency"),
                Arguments.of("currency is three letters", with("currency", "\"EURO\""), "/currency"),
                Arguments.of("stage enum", with("stage", "\"won\""), "/stage"),
                Arguments.of("stage is lowercase", with("stage", "\"Proposal\""), "/stage"),
                Arguments.of("status enum", with("status", "\"closed\""), "/status"),
                Arguments.of("contact_id is a UUID", with("contact_id", "\"ada\""), "/contact_id"),
                Arguments.of("company_id is a UUID", with("company_id", "\"acme\""), "/company_id"),
                Arguments.of("probability max 100", with("probability", "100.5"), "/probability"),
                Arguments.of("probability min 0", with("probability", "-1"), "/probability"),
                Arguments.of("probability is a whole percent, not a fraction", with("probability", "0.5"), "/probability"),
                Arguments.of("expected_close_date is a date", with("expected_close_date", "\"2025-13-01\""), "/expected_close_date"),
                Arguments.of("expected_close_date is not a timestamp", with("expected_close_date", "\"2025-01-01T10:00:00Z\""), "/expected_close_date"),
                Arguments.of("description max 10000", with("description", text(10_001)), "/description"),
                Arguments.of("assigned_to is a UUID", with("assigned_to", "\"bob\""), "/assigned_to"),
                Arguments.of("actual_close_date is a date", with("actual_close_date", "\"yesterday\""), "/actual_close_date"),
                Arguments.of("lost_reason max 1000", with("lost_reason", text(1001)), "/lost_reason"),
                Arguments.of("source max 180", with("source", text(181)), "/source"),
                Arguments.of("tags at most 50", with("tags", tooManyTags), "/tags"),
                Arguments.of("a tag max 100", with("tags", "[" + text(101) + "]"), "/tags/0"),
                Arguments.of("custom_fields is an object", with("custom_fields", "[]"), "/custom_fields"),
                Arguments.of("external_id max 255", with("external_id", text(256)), "/external_id"),
                Arguments.of("price_book_id is a UUID", with("price_book_id", "\"pb-1\""), "/price_book_id"),
                Arguments.of("package_id is a UUID", with("package_id", "\"pkg\""), "/package_id"),
                Arguments.of("rep_id is a UUID", with("rep_id", "\"rep\""), "/rep_id"),
                Arguments.of("developer_id is a UUID", with("developer_id", "\"dev\""), "/developer_id"),
                Arguments.of("commission_pct max 100", with("commission_pct", "101"), "/commission_pct"),
                Arguments.of("commission_pct min 0", with("commission_pct", "-0.5"), "/commission_pct"),
                Arguments.of("territory max 180", with("territory", text(181)), "/territory"),
                Arguments.of("unknown fields are refused", with("amount", "5"), "/amount"));
    }

    @ParameterizedTest(name = "create: {0}")
    @MethodSource("brokenRules")
    void createRefusesTheBrokenRuleNamingTheField(String rule, String body, String pointer, TestPlatform platform) {
        assertNames(platform.post("/api/v1/crm/deals", key, body), 422, pointer);
    }

    /** The create rules without "title is required": a patch needs no title (filtered here, not skipped inside). */
    static Stream<Arguments> brokenPatchRules() {
        return brokenRules().filter(a -> !a.get()[0].equals("title is required"));
    }

    @ParameterizedTest(name = "patch: {0}")
    @MethodSource("brokenPatchRules")
    void patchAppliesTheSameRules(String rule, String body, String pointer, TestPlatform platform) {
        String id = create(platform, "{\"title\":\"Patch rules\"}").path("id").asText();
        assertNames(platform.patch("/api/v1/crm/deals/" + id, key, body), 422, pointer);
    }

    @Test
    void anEmptyPatchIsRefused(TestPlatform platform) {
        String id = create(platform, "{\"title\":\"Empty patch\"}").path("id").asText();
        var response = platform.patch("/api/v1/crm/deals/" + id, key, "{}");
        assertEquals(422, response.status(), response.body());
        assertEquals("minProperties", response.json().path("errors").get(0).path("rule").asText(), response.body());
    }

    private static JsonNode create(TestPlatform platform, String body) {
        var response = platform.post("/api/v1/crm/deals", key, body);
        assertEquals(201, response.status(), response.body());
        return response.data();
    }

    @Test
    void probabilityIsOneScaleWholePercent(TestPlatform platform) {
        var fraction = platform.post("/api/v1/crm/deals", key, "{\"title\":\"half\",\"probability\":0.5}");
        assertEquals(422, fraction.status(), fraction.body());
        assertEquals("probability must be a whole number",
                fraction.json().path("errors").path(0).path("message").asText(), fraction.body());
        var percent = platform.post("/api/v1/crm/deals", key, "{\"title\":\"half\",\"probability\":50}");
        assertEquals(201, percent.status(), percent.body());
        assertEquals(50, percent.data().path("probability").asInt());
        assertEquals(422, platform.post("/api/v1/crm/deals", key, "{\"title\":\"x\",\"probability\":101}").status());
        var patched = platform.patch("/api/v1/crm/deals/" + percent.data().path("id").asText(), key,
                "{\"probability\":0.75}");
        assertEquals(422, patched.status(), patched.body());
    }

    @Test
    void createsWith201InTheEnvelopeAndReadsItBack(TestPlatform platform) {
        String contactId = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"buyer@example.com\"}").json()
                .path("id").asText();
        UUID assignee = UUID.randomUUID();
        var response = platform.post("/api/v1/crm/deals", key, """
                {"title":"Big one","value":12500.50,"currency":"EUR","contact_id":"%s","probability":40,
                 "expected_close_date":"2030-06-30","assigned_to":"%s","commission_pct":12.5,"tags":["q3"],
                 "custom_fields":{"channel":"partner"},"territory":"EMEA"}
                """.formatted(contactId, assignee));
        assertEquals(201, response.status(), response.body());
        JsonNode deal = response.data();
        assertEquals("Big one", deal.path("title").asText());
        assertEquals(0, deal.path("value").decimalValue().compareTo(new java.math.BigDecimal("12500.50")));
        assertEquals("EUR", deal.path("currency").asText());
        assertEquals("open", deal.path("status").asText());
        assertEquals("discovery", deal.path("stage").asText());
        assertEquals(contactId, deal.path("contact_id").asText());
        assertEquals("2030-06-30", deal.path("expected_close_date").asText());
        assertEquals(assignee.toString(), deal.path("assigned_to").asText());
        assertEquals("partner", deal.path("custom_fields").path("channel").asText());
        assertTrue(response.body().contains("\"value\":12500.5,"), response.body());
        assertTrue(response.body().contains("\"tags\":[\"q3\"]"), response.body());
        assertTrue(deal.path("actual_close_date").isNull());

        var read = platform.get("/api/v1/crm/deals/" + deal.path("id").asText(), key);
        assertEquals(200, read.status(), read.body());
        assertEquals(deal, read.data());
    }

    @Test
    void patchChangesOnlyTheGivenFieldsAndNullClearsOne(TestPlatform platform) {
        JsonNode deal = create(platform, "{\"title\":\"Patch me\",\"value\":10,\"source\":\"web\"}");
        String path = "/api/v1/crm/deals/" + deal.path("id").asText();
        var patched = platform.patch(path, key, "{\"value\":20,\"source\":null,\"stage\":\"proposal\"}");
        assertEquals(200, patched.status(), patched.body());
        assertEquals(20, patched.data().path("value").asInt());
        // The wire form, not only the value: 20, never 2E+1 or 20.00 (rows are mapped straight to JSON nodes).
        assertTrue(patched.body().contains("\"value\":20,"), patched.body());
        assertTrue(patched.body().matches(".*\"updated_at\":\"\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z\".*"), patched.body());
        assertTrue(patched.data().path("source").isNull());
        assertEquals("proposal", patched.data().path("stage").asText());
        assertEquals("Patch me", patched.data().path("title").asText());
        assertEquals(patched.data(), platform.get(path, key).data());
    }

    @Test
    void deleteAnswersIdAndDeletedAndTheDealIsGone(TestPlatform platform) {
        String id = create(platform, "{\"title\":\"Delete me\"}").path("id").asText();
        var deleted = platform.delete("/api/v1/crm/deals/" + id, key);
        assertEquals(200, deleted.status(), deleted.body());
        assertEquals(id, deleted.data().path("id").asText());
        assertTrue(deleted.data().path("deleted").asBoolean());
        assertEquals(404, platform.get("/api/v1/crm/deals/" + id, key).status());
        assertEquals(404, platform.delete("/api/v1/crm/deals/" + id, key).status());
    }

    @Test
    void aDealOfAnotherWorkspaceIsNotFound(TestPlatform platform) {
        String id = create(platform, "{\"title\":\"Mine\"}").path("id").asText();
        String path = "/api/v1/crm/deals/" + id;
        assertEquals(404, platform.get(path, otherKey).status());
        assertEquals(404, platform.patch(path, otherKey, "{\"title\":\"Theirs\"}").status());
        assertEquals(404, platform.delete(path, otherKey).status());
        assertEquals("Mine", platform.get(path, key).data().path("title").asText());
        assertEquals(400, platform.get("/api/v1/crm/deals/not-a-uuid", key).status());
        assertEquals(404, platform.get("/api/v1/crm/deals/" + UUID.randomUUID(), key).status());
    }

    @Test
    void aContactOfAnotherWorkspaceOrAMissingOneIsRefused(TestPlatform platform) {
        String theirContact = platform.post("/api/v1/crm/contacts", otherKey, "{\"email\":\"theirs@example.com\"}")
                .json().path("id").asText();
        var create = platform.post("/api/v1/crm/deals", key,
                "{\"title\":\"X\",\"contact_id\":\"" + theirContact + "\"}");
        assertNames(create, 422, "/contact_id");
        assertNames(platform.post("/api/v1/crm/deals", key,
                "{\"title\":\"X\",\"contact_id\":\"" + UUID.randomUUID() + "\"}"), 422, "/contact_id");
        String id = create(platform, "{\"title\":\"Y\"}").path("id").asText();
        assertNames(platform.patch("/api/v1/crm/deals/" + id, key, "{\"contact_id\":\"" + theirContact + "\"}"),
                422, "/contact_id");
    }

    // States: docs/crm.md, "Deal status and stage".

    @Test
    void aClosedStageClosesTheDealAndAClosedStatusSetsTheStage(TestPlatform platform) {
        assertEquals("closed_won", create(platform, "{\"title\":\"W\",\"stage\":\"closed_won\"}").path("status").asText());
        assertEquals("closed_lost", create(platform, "{\"title\":\"L\",\"status\":\"closed_lost\"}").path("stage").asText());
        JsonNode onHold = create(platform, "{\"title\":\"H\",\"status\":\"on_hold\",\"stage\":\"proposal\"}");
        assertEquals("on_hold", onHold.path("status").asText());
        String path = "/api/v1/crm/deals/" + onHold.path("id").asText();
        var won = platform.patch(path, key, "{\"stage\":\"closed_won\"}");
        assertEquals("closed_won", won.data().path("status").asText(), won.body());
    }

    @Test
    void inconsistentStatusAndStageInOneRequestAre422(TestPlatform platform) {
        assertNames(platform.post("/api/v1/crm/deals", key,
                "{\"title\":\"X\",\"status\":\"open\",\"stage\":\"closed_won\"}"), 422, "/stage");
        assertNames(platform.post("/api/v1/crm/deals", key,
                "{\"title\":\"X\",\"status\":\"closed_won\",\"stage\":\"proposal\"}"), 422, "/stage");
        assertNames(platform.post("/api/v1/crm/deals", key,
                "{\"title\":\"X\",\"status\":\"closed_won\",\"stage\":\"closed_lost\"}"), 422, "/stage");
        String id = create(platform, "{\"title\":\"Z\"}").path("id").asText();
        assertNames(platform.patch("/api/v1/crm/deals/" + id, key,
                "{\"status\":\"on_hold\",\"stage\":\"closed_lost\"}"), 422, "/stage");
    }

    @Test
    void openAndOnHoldMoveFreelyAndKeepTheStage(TestPlatform platform) {
        String path = "/api/v1/crm/deals/" + create(platform, "{\"title\":\"F\",\"stage\":\"negotiation\"}").path("id").asText();
        var held = platform.patch(path, key, "{\"status\":\"on_hold\"}");
        assertEquals("on_hold", held.data().path("status").asText(), held.body());
        assertEquals("negotiation", held.data().path("stage").asText());
        var open = platform.patch(path, key, "{\"status\":\"open\",\"stage\":\"qualified\"}");
        assertEquals("open", open.data().path("status").asText(), open.body());
        assertEquals("qualified", open.data().path("stage").asText());
    }

    @Test
    void aClosedDealMovesOnlyByAnExplicitReopen(TestPlatform platform) {
        String path = "/api/v1/crm/deals/" + create(platform, "{\"title\":\"C\",\"status\":\"closed_won\"}").path("id").asText();
        assertConflict(platform.patch(path, key, "{\"status\":\"closed_lost\"}"));
        assertConflict(platform.patch(path, key, "{\"stage\":\"closed_lost\"}"));
        assertConflict(platform.patch(path, key, "{\"status\":\"on_hold\"}"));
        assertConflict(platform.patch(path, key, "{\"status\":\"on_hold\",\"stage\":\"proposal\"}"));
        assertConflict(platform.patch(path, key, "{\"stage\":\"proposal\"}"));
        assertConflict(platform.patch(path, key, "{\"status\":\"open\"}"));
        assertEquals("closed_won", platform.get(path, key).data().path("status").asText());

        var edited = platform.patch(path, key, "{\"actual_close_date\":\"2030-01-15\",\"status\":\"closed_won\"}");
        assertEquals(200, edited.status(), edited.body());
        assertEquals("2030-01-15", edited.data().path("actual_close_date").asText());

        var reopened = platform.patch(path, key, "{\"status\":\"open\",\"stage\":\"negotiation\"}");
        assertEquals(200, reopened.status(), reopened.body());
        assertEquals("open", reopened.data().path("status").asText());
        assertEquals("negotiation", reopened.data().path("stage").asText());
    }

    private static void assertConflict(dev.lnp.testkit.TestResponse response) {
        assertEquals(409, response.status(), response.body());
        assertEquals("invalid_transition", response.json().path("code").asText(), response.body());
    }
}
