package dev.lnp.plugins.crm;

import static dev.lnp.plugins.crm.Problems.assertNames;
import static dev.lnp.plugins.crm.Problems.repeat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Company create, get, patch and delete over REST: field rules, shapes, the unique domain and workspace boundaries. */
@PlatformTest(plugins = "crm")
class CompanyTest {

    private static String key;
    private static String otherKey;

    @BeforeAll
    static void workspaces(TestPlatform platform) {
        key = platform.key(platform.createWorkspace("companies"), "companies.read", "companies.write");
        otherKey = platform.key(platform.createWorkspace("companies-other"), "companies.read", "companies.write");
    }

    private static String with(String field, String value) {
        ObjectNode body = Json.object();
        body.put("name", "Rule company");
        body.set(field, Json.parse(value));
        return body.toString();
    }

    private static String text(int length) {
        return '"' + repeat('x', length) + '"';
    }

    private static JsonNode create(TestPlatform platform, String body) {
        TestResponse response = platform.post("/api/v1/crm/companies", key, body);
        assertEquals(201, response.status(), response.body());
        return response.data();
    }

    static Stream<Arguments> brokenRules() {
        String tooManyTags = "[" + String.join(",", IntStream.range(0, 51).mapToObj(i -> "\"t" + i + "\"").toList()) + "]";
        return Stream.of(
                Arguments.of("name is required", "{\"domain\":\"acme.com\"}", "/name"),
                Arguments.of("name is not empty", with("name", "\"\""), "/name"),
                Arguments.of("name max 255", with("name", text(256)), "/name"),
                Arguments.of("name is not null", with("name", "null"), "/name"),
                Arguments.of("domain is a host name", with("domain", "\"acme .com\""), "/domain"),
                Arguments.of("domain has no scheme", with("domain", "\"https://acme.com\""), "/domain"),
                Arguments.of("domain has no path", with("domain", "\"acme.com/about\""), "/domain"),
                Arguments.of("website is an address", with("website", "\"not a url\""), "/website"),
                Arguments.of("website is http or https", with("website", "\"ftp://acme.com\""), "/website"),
                Arguments.of("website max 500", with("website", "\"https://acme.com/" + repeat('p', 490) + "\""), "/website"),
                Arguments.of("industry max 180", with("industry", text(181)), "/industry"),
                Arguments.of("employees is a whole number", with("employees", "12.5"), "/employees"),
                Arguments.of("employees is not negative", with("employees", "-1"), "/employees"),
                Arguments.of("employees max 10^8", with("employees", "100000001"), "/employees"),
                Arguments.of("employees is a number", with("employees", "\"50\""), "/employees"),
                Arguments.of("phone max 50", with("phone", text(51)), "/phone"),
                Arguments.of("address_line1 max 255", with("address_line1", text(256)), "/address_line1"),
                Arguments.of("address_line2 max 255", with("address_line2", text(256)), "/address_line2"),
                Arguments.of("city max 120", with("city", text(121)), "/city"),
                Arguments.of("state max 120", with("state", text(121)), "/state"),
                Arguments.of("postal_code max 20", with("postal_code", text(21)), "/postal_code"),
                Arguments.of("country max 120", with("country", text(121)), "/country"),
                Arguments.of("notes max 10000", with("notes", text(10_001)), "/notes"),
                Arguments.of("tags at most 50", with("tags", tooManyTags), "/tags"),
                Arguments.of("a tag max 100", with("tags", "[" + text(101) + "]"), "/tags/0"),
                Arguments.of("tags is not null", with("tags", "null"), "/tags"),
                Arguments.of("custom_fields is an object", with("custom_fields", "[]"), "/custom_fields"),
                Arguments.of("external_id max 255", with("external_id", text(256)), "/external_id"),
                Arguments.of("unknown fields are refused", with("size", "\"11-50\""), "/size"));
    }

    @ParameterizedTest(name = "create: {0}")
    @MethodSource("brokenRules")
    void createRefusesTheBrokenRuleNamingTheField(String rule, String body, String pointer, TestPlatform platform) {
        assertNames(platform.post("/api/v1/crm/companies", key, body), 422, pointer);
    }

    /** The create rules without "name is required": a patch needs no name. */
    static Stream<Arguments> brokenPatchRules() {
        return brokenRules().filter(a -> !a.get()[0].equals("name is required"));
    }

    @ParameterizedTest(name = "patch: {0}")
    @MethodSource("brokenPatchRules")
    void patchAppliesTheSameRules(String rule, String body, String pointer, TestPlatform platform) {
        String id = create(platform, "{\"name\":\"Patch rules\"}").path("id").asText();
        assertNames(platform.patch("/api/v1/crm/companies/" + id, key, body), 422, pointer);
    }

    @Test
    void anEmptyPatchIsRefused(TestPlatform platform) {
        String id = create(platform, "{\"name\":\"Empty patch\"}").path("id").asText();
        TestResponse response = platform.patch("/api/v1/crm/companies/" + id, key, "{}");
        assertEquals(422, response.status(), response.body());
        assertEquals("minProperties", response.json().path("errors").get(0).path("rule").asText(), response.body());
    }

    @Test
    void createsEveryFieldAtItsLimitWith201InTheEnvelopeAndReadsItBack(TestPlatform platform) {
        String tags = "[" + String.join(",", IntStream.range(0, 50).mapToObj(i -> "\"" + i + repeat('t', 98) + "\"").toList()) + "]";
        TestResponse response = platform.post("/api/v1/crm/companies", key, """
                {"name":%s,"domain":"Limits.Example.com","website":"https://limits.example.com/about","industry":%s,
                 "employees":100000000,"phone":%s,"address_line1":%s,"address_line2":%s,"city":%s,"state":%s,
                 "postal_code":%s,"country":%s,"notes":%s,"tags":%s,"custom_fields":{"tier":"gold"},"external_id":%s}
                """.formatted(text(255), text(180), text(50), text(255), text(255), text(120), text(120), text(20),
                text(120), text(10_000), tags, text(255)));
        assertEquals(201, response.status(), response.body());
        JsonNode company = response.data();
        UUID.fromString(company.path("id").asText());
        assertEquals("Limits.Example.com", company.path("domain").asText(), "kept as sent");
        assertEquals(100_000_000, company.path("employees").asInt());
        assertEquals(50, company.path("tags").size());
        assertEquals("gold", company.path("custom_fields").path("tier").asText());
        assertTrue(company.path("created_at").asText().matches("\\d{4}-\\d\\d-\\d\\dT.*Z"), company.toString());

        TestResponse read = platform.get("/api/v1/crm/companies/" + company.path("id").asText(), key);
        assertEquals(200, read.status(), read.body());
        assertEquals(company, read.data());
    }

    @Test
    void onlyNameIsRequiredAndEveryOtherFieldIsAnsweredEmpty(TestPlatform platform) {
        JsonNode company = create(platform, "{\"name\":\"Bare\"}");
        for (String field : new String[] {"domain", "website", "industry", "employees", "phone", "address_line1",
                "address_line2", "city", "state", "postal_code", "country", "notes", "external_id"}) {
            assertTrue(company.has(field) && company.get(field).isNull(), field + ": " + company);
        }
        assertEquals(0, company.path("tags").size());
        assertTrue(company.path("custom_fields").isObject());
    }

    @Test
    void patchChangesOnlyTheGivenFieldsAndNullClearsOne(TestPlatform platform) {
        JsonNode company = create(platform, "{\"name\":\"Initech\",\"industry\":\"software\",\"employees\":40,"
                + "\"city\":\"Austin\"}");
        String id = company.path("id").asText();
        TestResponse patched = platform.patch("/api/v1/crm/companies/" + id, key,
                "{\"employees\":45,\"industry\":null,\"tags\":[\"tps\"]}");
        assertEquals(200, patched.status(), patched.body());
        assertEquals(45, patched.data().path("employees").asInt());
        assertTrue(patched.data().path("industry").isNull());
        assertEquals("Austin", patched.data().path("city").asText());
        assertEquals("Initech", patched.data().path("name").asText());
        assertEquals("tps", patched.data().path("tags").get(0).asText());
        assertFalse(patched.data().path("updated_at").asText().compareTo(company.path("updated_at").asText()) < 0);
        assertEquals(patched.data(), platform.get("/api/v1/crm/companies/" + id, key).data());
    }

    @Test
    void aDomainNamesOneCompanyOfAWorkspaceWhateverItsCase(TestPlatform platform) {
        create(platform, "{\"name\":\"Globex\",\"domain\":\"globex.com\"}");
        TestResponse twice = platform.post("/api/v1/crm/companies", key, "{\"name\":\"Globex 2\",\"domain\":\"GLOBEX.com\"}");
        assertNames(twice, 409, "/domain");
        assertEquals("duplicate_domain", twice.json().path("code").asText(), twice.body());

        String other = create(platform, "{\"name\":\"Hooli\",\"domain\":\"hooli.com\"}").path("id").asText();
        TestResponse renamed = platform.patch("/api/v1/crm/companies/" + other, key, "{\"domain\":\"Globex.COM\"}");
        assertNames(renamed, 409, "/domain");
        assertEquals("hooli.com", platform.get("/api/v1/crm/companies/" + other, key).data().path("domain").asText());

        // Companies without a domain are not compared, and another workspace may have the same domain.
        create(platform, "{\"name\":\"No domain 1\"}");
        create(platform, "{\"name\":\"No domain 2\",\"domain\":null}");
        assertEquals(201, platform.post("/api/v1/crm/companies", otherKey,
                "{\"name\":\"Globex\",\"domain\":\"globex.com\"}").status());
    }

    @Test
    void deleteAnswersTheIdAndTheCompanyIsGone(TestPlatform platform) {
        String id = create(platform, "{\"name\":\"Short lived\"}").path("id").asText();
        TestResponse deleted = platform.delete("/api/v1/crm/companies/" + id, key);
        assertEquals(200, deleted.status(), deleted.body());
        assertEquals(id, deleted.data().path("id").asText());
        assertTrue(deleted.data().path("deleted").asBoolean());
        assertNames404(platform.get("/api/v1/crm/companies/" + id, key));
        assertNames404(platform.delete("/api/v1/crm/companies/" + id, key));
    }

    @Test
    void anotherWorkspacesCompanyIsAnsweredLikeAMissingOne(TestPlatform platform) {
        String id = create(platform, "{\"name\":\"Guarded\"}").path("id").asText();
        String missing = UUID.randomUUID().toString();
        for (String method : new String[] {"GET", "PATCH", "DELETE"}) {
            String body = method.equals("PATCH") ? "{\"name\":\"Mallory\"}" : null;
            TestResponse foreign = platform.send(method, "/api/v1/crm/companies/" + id, otherKey, body, Map.of());
            TestResponse absent = platform.send(method, "/api/v1/crm/companies/" + missing, otherKey, body, Map.of());
            assertNames404(foreign);
            assertEquals(absent.json().path("detail"), foreign.json().path("detail"), method);
        }
        assertEquals("Guarded", platform.get("/api/v1/crm/companies/" + id, key).data().path("name").asText());
        assertEquals(400, platform.get("/api/v1/crm/companies/not-a-uuid", key).status());
    }

    @Test
    void anIdempotencyKeyReplaysTheCreateInsteadOfMakingASecondCompany(TestPlatform platform) {
        Map<String, String> headers = Map.of("Idempotency-Key", "company-" + UUID.randomUUID());
        String body = "{\"name\":\"Once\",\"domain\":\"once.example.com\"}";
        TestResponse first = platform.send("POST", "/api/v1/crm/companies", key, body, headers);
        TestResponse again = platform.send("POST", "/api/v1/crm/companies", key, body, headers);
        assertEquals(201, first.status(), first.body());
        assertEquals(201, again.status(), again.body());
        assertEquals("true", again.header("Idempotent-Replayed").orElse(""), again.toString());
        assertEquals(first.data(), again.data());
        TestResponse reused = platform.send("POST", "/api/v1/crm/companies", key, "{\"name\":\"Other\"}", headers);
        assertEquals(422, reused.status(), reused.body());
        assertEquals("idempotency_key_reused", reused.json().path("code").asText(), reused.body());
        assertEquals(1, platform.get("/api/v1/crm/companies?search=once.example.com", key).data().size());
    }

    private static void assertNames404(TestResponse response) {
        assertEquals(404, response.status(), response.body());
        assertTrue(response.header("Content-Type").orElse("").startsWith("application/problem+json"), response.body());
    }
}
