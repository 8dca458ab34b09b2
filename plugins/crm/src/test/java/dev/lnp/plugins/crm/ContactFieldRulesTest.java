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
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** POST /api/v1/crm/contacts: every rule of the Contact table, one failing case each, and what is accepted. */
@PlatformTest(plugins = "crm")
class ContactFieldRulesTest {

    private static String key;
    private static int created;

    @BeforeAll
    static void workspace(TestPlatform platform) {
        key = platform.key(platform.createWorkspace("contact-rules"), "contacts.read", "contacts.write",
                "companies.write");
    }

    /** A valid body with one field replaced by {@code value} (a JSON literal). */
    private static String with(String field, String value) {
        ObjectNode body = Json.object();
        body.put("email", "rule-" + UUID.randomUUID() + "@example.com");
        body.set(field, Json.parse(value));
        return body.toString();
    }

    private static String text(int length) {
        return '"' + repeat('x', length) + '"';
    }

    static Stream<Arguments> brokenRules() {
        String tooManyTags = "[" + String.join(",", IntStream.range(0, 51).mapToObj(i -> "\"t" + i + "\"").toList()) + "]";
        return Stream.of(
                Arguments.of("email is required", "{\"first_name\":\"Ada\"}", "/email"),
                Arguments.of("email must be an address", with("email", "\"not-an-email\""), "/email"),
                Arguments.of("email must be a string", with("email", "42"), "/email"),
                Arguments.of("email needs a dotted domain", with("email", "\"ada@localhost\""), "/email"),
                Arguments.of("email refuses spaces", with("email", "\"ada lovelace@example.com\""), "/email"),
                Arguments.of("email refuses a leading dot", with("email", "\".ada@example.com\""), "/email"),
                Arguments.of("email refuses a hyphen-edged label", with("email", "\"ada@-example.com\""), "/email"),
                Arguments.of("email refuses a numeric top label", with("email", "\"ada@example.123\""), "/email"),
                Arguments.of("email local part max 64", with("email", "\"" + repeat('a', 65) + "@example.com\""), "/email"),
                Arguments.of("email max 320", with("email", "\"" + repeat('a', 60) + "@" + repeat('b', 255) + ".example.com\""), "/email"),
                Arguments.of("first_name max 120", with("first_name", text(121)), "/first_name"),
                Arguments.of("last_name max 120", with("last_name", text(121)), "/last_name"),
                Arguments.of("phone max 50", with("phone", text(51)), "/phone"),
                Arguments.of("job_title max 180", with("job_title", text(181)), "/job_title"),
                Arguments.of("company_id must be a UUID", with("company_id", "\"acme\""), "/company_id"),
                Arguments.of("company_id must not be a number", with("company_id", "7"), "/company_id"),
                Arguments.of("company_name max 255", with("company_name", text(256)), "/company_name"),
                Arguments.of("contact_type enum", with("contact_type", "\"friend\""), "/contact_type"),
                Arguments.of("contact_type is lowercase", with("contact_type", "\"Lead\""), "/contact_type"),
                Arguments.of("status enum", with("status", "\"archived\""), "/status"),
                Arguments.of("status is lowercase", with("status", "\"ACTIVE\""), "/status"),
                Arguments.of("lead_source max 180", with("lead_source", text(181)), "/lead_source"),
                Arguments.of("industry max 180", with("industry", text(181)), "/industry"),
                Arguments.of("notes max 10000", with("notes", text(10_001)), "/notes"),
                Arguments.of("tags at most 50", with("tags", tooManyTags), "/tags"),
                Arguments.of("tags are strings", with("tags", "[\"ok\", 3]"), "/tags/1"),
                Arguments.of("a tag max 100", with("tags", "[" + text(101) + "]"), "/tags/0"),
                Arguments.of("tags is an array", with("tags", "\"vip\""), "/tags"),
                Arguments.of("custom_fields is an object", with("custom_fields", "[1]"), "/custom_fields"),
                Arguments.of("external_id max 255", with("external_id", text(256)), "/external_id"),
                Arguments.of("country max 120", with("country", text(121)), "/country"),
                Arguments.of("state max 120", with("state", text(121)), "/state"),
                Arguments.of("city max 120", with("city", text(121)), "/city"),
                Arguments.of("social_professional max 500", with("social_professional", text(501)), "/social_professional"),
                Arguments.of("unknown fields are refused", with("nickname", "\"Ada\""), "/nickname"),
                Arguments.of("a string field refuses null", with("first_name", "null"), "/first_name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenRules")
    void refusesTheBrokenRuleNamingTheField(String rule, String body, String pointer, TestPlatform platform) {
        assertNames(platform.post("/api/v1/crm/contacts", key, body), 422, pointer);
    }

    /** On-premises receivers use private top-level domains; syntax is checked, not the public TLD registry. */
    @ParameterizedTest
    @ValueSource(strings = {"ops@build.internal", "sales@corp.lan", "o'brien+crm@mail.example.co.uk",
            "ada@[192.0.2.10]", "ada@[IPv6:2001:db8::1]", "x@a-b.c-d.example"})
    void acceptsEveryEmailThatIsValidSyntax(String email, TestPlatform platform) {
        var response = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"" + email + "\"}");
        assertEquals(201, response.status(), response.body());
        assertEquals(email, response.json().get("email").asText());
    }

    @Test
    void aCompanyFieldIsRefusedPointingToCompanyIdAndCompanyName(TestPlatform platform) {
        var response = platform.post("/api/v1/crm/contacts", key, with("company", "\"Acme\""));
        JsonNode error = assertNames(response, 422, "/company");
        assertTrue(error.path("message").asText().contains("company_id"), error.toString());
        assertTrue(error.path("message").asText().contains("company_name"), error.toString());
    }

    @Test
    void acceptsEveryFieldAtItsLimitAndAnswersTheContactItselfWith201(TestPlatform platform) {
        String tags = "[" + String.join(",", IntStream.range(0, 50).mapToObj(i -> "\"" + i + repeat('t', 98) + "\"").toList()) + "]";
        String company = platform.post("/api/v1/crm/companies", key, "{\"name\":\"Limits Inc\"}").data()
                .path("id").asText();
        String body = """
                {"email":"Limits@Example.com","first_name":%s,"last_name":%s,"phone":%s,"job_title":%s,
                 "company_id":"%s","company_name":%s,"contact_type":"prospect","status":"pending",
                 "lead_source":%s,"industry":%s,"notes":%s,"tags":%s,"custom_fields":{"tier":"gold","seats":3},
                 "external_id":%s,"country":%s,"state":%s,"city":%s,"social_professional":%s}
                """.formatted(text(120), text(120), text(50), text(180), company, text(255), text(180), text(180),
                text(10_000), tags, text(255), text(120), text(120), text(120), text(500));
        var response = platform.post("/api/v1/crm/contacts", key, body);
        assertEquals(201, response.status(), response.body());
        JsonNode contact = response.json();
        assertFalse(contact.has("data"), "contact create answers the object directly");
        UUID.fromString(contact.path("id").asText());
        assertEquals("Limits@Example.com", contact.path("email").asText());
        assertEquals(company, contact.path("company_id").asText());
        assertEquals("pending", contact.path("status").asText());
        assertEquals("prospect", contact.path("contact_type").asText());
        assertEquals(50, contact.path("tags").size());
        assertEquals("gold", contact.path("custom_fields").path("tier").asText());
        assertEquals(10_000, contact.path("notes").asText().length());
        assertTrue(contact.path("created_at").asText().matches("\\d{4}-\\d\\d-\\d\\dT.*Z"), contact.toString());
        assertTrue(contact.has("updated_at"));
        created++;
    }

    @Test
    void onlyEmailIsRequiredAndDefaultsAreReturned(TestPlatform platform) {
        var response = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"only@example.com\"}");
        assertEquals(201, response.status(), response.body());
        JsonNode contact = response.json();
        assertEquals("active", contact.path("status").asText());
        assertTrue(contact.path("first_name").isNull());
        assertTrue(contact.path("company_id").isNull());
        assertEquals(0, contact.path("tags").size());
        assertTrue(contact.path("custom_fields").isObject());
    }

    @Test
    void companyIdMayBeEmptyOrNullAndThenIsNone(TestPlatform platform) {
        var empty = platform.post("/api/v1/crm/contacts", key, with("company_id", "\"\""));
        assertEquals(201, empty.status(), empty.body());
        assertTrue(empty.json().path("company_id").isNull());
        var nothing = platform.post("/api/v1/crm/contacts", key, with("company_id", "null"));
        assertEquals(201, nothing.status(), nothing.body());
        assertTrue(nothing.json().path("company_id").isNull());
    }

    @Test
    void aSecondContactWithTheSameEmailInAnyCaseIs409(TestPlatform platform) {
        var first = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"twice@example.com\"}");
        assertEquals(201, first.status(), first.body());
        var second = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"TWICE@example.COM\"}");
        assertNames(second, 409, "/email");
        assertEquals("duplicate_email", second.json().path("code").asText(), second.body());
    }

    @Test
    void theSameEmailInAnotherWorkspaceIsFine(TestPlatform platform) {
        assertEquals(201, platform.post("/api/v1/crm/contacts", key, "{\"email\":\"shared@example.com\"}").status());
        String other = platform.key(platform.createWorkspace("other"), "contacts.write");
        var response = platform.post("/api/v1/crm/contacts", other, "{\"email\":\"shared@example.com\"}");
        assertEquals(201, response.status(), response.body());
    }

    @Test
    void thereIsNoRouteForOneContact(TestPlatform platform) {
        var contact = platform.post("/api/v1/crm/contacts", key, with("first_name", "\"Solo\"")).json();
        String path = "/api/v1/crm/contacts/" + contact.path("id").asText();
        assertEquals(404, platform.get(path, key).status());
        assertEquals(404, platform.patch(path, key, "{\"first_name\":\"X\"}").status());
        assertEquals(404, platform.delete(path, key).status());
    }
}
