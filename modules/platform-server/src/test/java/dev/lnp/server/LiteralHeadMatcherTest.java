package dev.lnp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.helidon.common.uri.UriPath;
import io.helidon.http.PathMatcher;
import io.helidon.http.PathMatchers;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The literal head only turns down what Helidon's own matcher would turn down: same answers, same parameters. */
class LiteralHeadMatcherTest {

    private static final List<String> TEMPLATES = List.of("/api/v1/crm/contacts", "/api/v1/crm/contacts/{id}",
            "/api/v1/crm/contacts/{id}/notes", "/api/v1/projects/{project_id}/issues/{id}", "/api/mcp/*",
            "/api/v1/{kind}", "/api/v1/webhooks/subscriptions/{id}/test", "/{any}");

    private static final List<String> PATHS = List.of("/api/v1/crm/contacts", "/api/v1/crm/contacts/",
            "/api/v1/crm/contacts/0f8fad5b-d9cb-469f-a165-70867728950e", "/api/v1/crm/contacts/x/notes",
            "/api/v1/crm/contacts/x/notes/", "/api/v1/crm/contactsx", "/api/v1/projects/p/issues/i",
            "/api/v1/projects//issues/i", "/api/mcp", "/api/mcp/tools/call", "/api/v1/deals", "/api/v1",
            "/api/v1/webhooks/subscriptions/s/test", "/API/v1/crm/contacts/x", "/", "/x", "/api/v1/crm/contacts/a%2Fb",
            "/api/v1/crm/contacts/caf%C3%A9");

    @Test
    void answersAsHelidonsMatcherDoesForEveryTemplateAndPath() {
        for (String template : TEMPLATES) {
            PathMatcher ours = LiteralHeadMatcher.of(template);
            PathMatcher helidons = PathMatchers.create(template);
            for (String raw : PATHS) {
                UriPath path = UriPath.create(raw);
                var expected = helidons.match(path);
                var actual = ours.match(path);
                String what = template + " against " + raw;
                assertEquals(expected.accepted(), actual.accepted(), what);
                if (expected.accepted()) {
                    assertEquals(expected.path().pathParameters().toMap(), actual.path().pathParameters().toMap(),
                            what);
                }
                assertEquals(helidons.prefixMatch(path).accepted(), ours.prefixMatch(path).accepted(),
                        "prefix of " + what);
            }
        }
    }

    @Test
    void theHeadEndsBeforeTheFirstCharacterWithAMeaningAndTheSlashBeforeIt() {
        assertEquals("/api/v1/crm/contacts", LiteralHeadMatcher.head("/api/v1/crm/contacts/{id}"));
        assertEquals("/api/v1/projects", LiteralHeadMatcher.head("/api/v1/projects/{project_id}/issues/{id}"));
        assertEquals("/api/mcp", LiteralHeadMatcher.head("/api/mcp/*"));
        assertEquals("/a", LiteralHeadMatcher.head("/a[/b]"));
        assertEquals("", LiteralHeadMatcher.head("/{any}"));
        assertEquals(null, LiteralHeadMatcher.head("/api/v1/crm/contacts"));
    }

    @Test
    void aPathWithoutParametersKeepsHelidonsExactMatcher() {
        PathMatcher exact = LiteralHeadMatcher.of("/api/v1/crm/contacts");
        assertTrue(!(exact instanceof LiteralHeadMatcher), exact.getClass().getName());
        assertSame(LiteralHeadMatcher.class, LiteralHeadMatcher.of("/api/v1/crm/contacts/{id}").getClass());
    }
}
