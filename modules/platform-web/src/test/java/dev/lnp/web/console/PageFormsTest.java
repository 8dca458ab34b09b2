package dev.lnp.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.Json;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.internal.people.Html;
import dev.lnp.json.validation.PlatformJsonValidation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The page API's declarations the web layer reads (a role, a secret), how a schema becomes a form, how a cell shows a
 * value, and which return paths a sign-in accepts; the pages themselves are tested over HTTP (AppPagesTest,
 * DeskPagesTest, PeoplePagesTest).
 */
class PageFormsTest {

    /** The validator the kernel gives the console. */
    private static final PlatformJsonValidation VALIDATION = new PlatformJsonValidation();

    @Test
    void aPageNarrowedToARoleAdmitsThatRoleAndStrongerOnes() {
        PageRoute owners = PageRoute.view("/console/x").scope("x.read").role("owner").renderer(call -> null);
        PageRoute admins = PageRoute.view("/console/x").scope("x.read").role("admin").renderer(call -> null);
        PageRoute anyone = PageRoute.view("/app/x").scope("x.read").renderer(call -> null);
        assertTrue(ContributedPages.roleAllows(owners, "owner"));
        assertFalse(ContributedPages.roleAllows(owners, "admin"));
        assertTrue(ContributedPages.roleAllows(admins, "owner"));
        assertTrue(ContributedPages.roleAllows(admins, "admin"));
        assertFalse(ContributedPages.roleAllows(admins, "member"));
        assertFalse(ContributedPages.roleAllows(admins, "guest"), "an unknown role reaches nothing narrowed");
        assertTrue(ContributedPages.roleAllows(anyone, "member"), "no role named: the scope decides");
        var notARole = assertThrows(IllegalArgumentException.class,
                () -> PageRoute.view("/app/x").scope("x.read").role("boss").renderer(call -> null));
        assertTrue(notARole.getMessage().contains("boss"), notARole.getMessage());
    }

    @Test
    void aSecretGoesWithTheOutcomeAndNeedsALabelAndAValue() {
        var outcome = PageOutcome.goTo("/console/x/1", "Created.").showingOnce("Key", "s3cret", null);
        assertEquals(new PageOutcome.ShownOnce("Key", "s3cret", null), outcome.shownOnce());
        assertEquals("Created.", outcome.notice());
        assertEquals(null, PageOutcome.goTo("/console/x/1").shownOnce());
        assertThrows(NullPointerException.class, () -> PageOutcome.goTo("/console/x").showingOnce("Key", null, null));
    }

    @Test
    void aNullablePropertyIsAnInputOfItsOtherTypeAndXInputChoosesTheInput() {
        var form = new SchemaForm("test", VALIDATION, Json.parse("""
                {"type": "object", "properties": {
                   "note": {"type": ["string", "null"], "maxLength": 50},
                   "url": {"type": "string", "maxLength": 2048, "x-input": "url"},
                   "odd": {"type": "string", "maxLength": 2048, "x-input": "password"},
                   "count": {"type": ["null", "integer"]}}}
                """));
        assertEquals(List.of("text", "url", "textarea", "number"),
                form.fields(Map.of(), Map.of()).stream().map(SchemaForm.Field::kind).toList(),
                "an x-input the form does not know is ignored");
    }

    @Test
    void anArrayOfCheckboxesTakesEveryTickedValueAndOffersItsChoicesByLabel() {
        var form = new SchemaForm("test", VALIDATION, Json.parse("""
                {"type": "object", "required": ["rows"], "properties": {
                   "rows": {"type": "array", "x-input": "checkboxes", "minItems": 1,
                            "items": {"type": "string", "format": "uuid"}},
                   "labels": {"type": "array", "x-input": "checkboxes",
                              "items": {"type": "string", "enum": ["a", "b"]}, "x-enum-labels": {"a": "Urgent"}},
                   "state": {"type": "string", "enum": ["todo", "done"], "x-enum-labels": {"done": "Done"}}}}
                """));
        var fields = form.fields(Map.of("labels", "b"), Map.of());
        assertEquals(List.of("checkboxes", "checkboxes", "select"), fields.stream().map(SchemaForm.Field::kind).toList());
        assertEquals(List.of("Urgent", "b"), fields.get(1).options().stream().map(c -> c.label()).toList(),
                "a choice without a label shows its value");
        assertTrue(fields.get(1).options().get(1).selected(), "what was ticked stays ticked");
        assertEquals(List.of("todo", "Done"), fields.get(2).options().stream().map(c -> c.label()).toList());

        String one = "00000000-0000-4000-8000-000000000001";
        String two = "00000000-0000-4000-8000-000000000002";
        Map<String, List<String>> posted = Map.of("rows", List.of(one, two), "labels", List.of("a"));
        var parsed = form.parse(name -> posted.getOrDefault(name, List.of()).stream().findFirst().orElse(null),
                name -> posted.getOrDefault(name, List.of()));
        assertTrue(parsed.valid(), parsed.errors().toString());
        assertEquals(Json.parse("{\"rows\": [\"" + one + "\", \"" + two + "\"], \"labels\": [\"a\"]}"),
                parsed.values(), "every ticked value; an empty group that is not required is left out");

        var none = form.parse(name -> null, name -> List.of());
        assertEquals("Choose at least 1.", none.errors().get("rows"), "nothing ticked where something must be");
    }

    @Test
    void aSchemaBecomesFieldsAndPostedValuesBecomeJson() {
        var form = new SchemaForm("test", VALIDATION, Json.parse("""
                {"type": "object", "additionalProperties": false, "required": ["name"],
                 "properties": {
                   "name": {"type": "string", "title": "Name", "maxLength": 10, "description": "Shown to all."},
                   "bio": {"type": "string", "maxLength": 500},
                   "level": {"enum": ["low", "high"]},
                   "site": {"type": "string", "format": "uri"},
                   "on": {"type": "boolean"},
                   "count": {"type": "integer", "minimum": 1},
                   "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}}}}
                """));
        var fields = form.fields(Map.of(), Map.of());
        assertEquals(List.of("text", "textarea", "select", "url", "checkbox", "number", "lines"),
                fields.stream().map(SchemaForm.Field::kind).toList());
        assertEquals("Shown to all.", fields.get(0).help());
        assertTrue(fields.get(0).required());
        assertEquals("Bio", fields.get(1).label(), "the name when there is no title");

        Map<String, String> posted = Map.of("name", "  Ada  ", "bio", "", "tags", "a\r\n\r\n b \n", "count", "3");
        var parsed = form.parse(posted::get);
        assertTrue(parsed.valid(), parsed.errors().toString());
        assertEquals("{\"name\":\"Ada\",\"on\":false,\"count\":3,\"tags\":[\"a\",\"b\"]}", parsed.values().toString());

        Map<String, String> bad = Map.of("count", "1.5", "tags", "ok\ntoolong", "level", "mid", "site", "not a url");
        var refused = form.parse(bad::get);
        assertEquals(Map.of("count", "Enter a whole number.", "name", "Fill in Name.",
                "tags", "Each line may have at most 3 characters (line 2).", "level", "Choose one of the options.",
                "site", "Enter a full address starting with https://."), refused.errors());
        assertEquals("1.5", refused.typed().get("count"), "what was typed is kept");
    }

    @Test
    void aNewFormStartsFromTheDefaultsAndAPatternErrorUsesItsHint() {
        var form = new SchemaForm("test", VALIDATION, Json.parse("""
                {"type": "object", "properties": {
                   "on": {"type": "boolean", "default": true},
                   "level": {"enum": ["low", "high"], "default": "high"},
                   "code": {"type": "string", "pattern": "^[a-z]+$"},
                   "hosts": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$",
                             "x-pattern-hint": "Write a host name in small letters"}}}}
                """));
        assertEquals(Map.of("on", "on", "level", "high"), form.defaults());
        Map<String, String> bad = Map.of("code", "A1", "hosts", "ok\nNOT");
        assertEquals(Map.of("code", "This value is not allowed here.",
                "hosts", "Write a host name in small letters (line 2)."), form.parse(bad::get).errors());
    }

    @Test
    void aSignInReturnsOnlyToALocalPath() {
        for (String ok : List.of("/", "/api/agent-trials/approve?trial=3f2b", "/console/sessions?x=1&y=%2F%2F")) {
            assertTrue(ReturnPaths.isLocal(ok), ok);
        }
        for (String bad : List.of("", "//evil.example", "/\\evil.example", "https://evil.example/", "evil.example/x",
                "javascript:alert(1)", "/a b", "/a\r\nLocation: x", "/caf\u00e9", "/" + "a".repeat(2000))) {
            assertFalse(ReturnPaths.isLocal(bad), bad);
        }
        assertFalse(ReturnPaths.isLocal(null));
    }

    @Test
    void htmlEscapingCoversTextAndAttributes() {
        assertEquals("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
                Html.escape("<a href=\"x\" title='y'>&</a>"));
        assertEquals("", Html.escape(null));
        assertEquals("a%40b.example+c", Html.urlEncode("a@b.example c"));
    }

    @Test
    void cellsShowTimesLikeTheRestOfTheConsoleAndOtherValuesAsText() {
        var nodes = Json.mapper().getNodeFactory();
        assertEquals("2026-11-23 07:08 UTC", PageRenderer.text(nodes.textNode("2026-11-23T07:08:22.906342Z")));
        assertEquals("2026-11-23 06:08 UTC", PageRenderer.text(nodes.textNode("2026-11-23T07:08:00+01:00")));
        assertEquals("2026-11-23", PageRenderer.text(nodes.textNode("2026-11-23")), "a date alone stays as written");
        assertEquals("2026-13-45T99:99Z", PageRenderer.text(nodes.textNode("2026-13-45T99:99Z")), "not a time: as written");
        assertEquals("yes", PageRenderer.text(nodes.booleanNode(true)));
        assertEquals("—", PageRenderer.text(nodes.nullNode()));
        assertEquals("a, b", PageRenderer.text(Json.mapper().createArrayNode().add("a").add("b")));
    }
}
