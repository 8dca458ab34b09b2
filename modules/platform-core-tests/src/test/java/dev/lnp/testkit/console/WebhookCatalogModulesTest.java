package dev.lnp.testkit.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The webhook event catalog follows the workspace's modules: events of a module switched off for the workspace
 * are not listed (v1 route, console JSON, console page and form) and a subscription naming one, by name, alias
 * or wildcard, is 422 naming the event and the module; switched on again, they are back.
 */
@PlatformTest(plugins = "probe", config = "lnp.webhooks.allowed_networks=127.0.0.0/8")
class WebhookCatalogModulesTest {

    private static final String EVENTS = "/api/v1/webhooks/events";
    private static final String SUBSCRIPTIONS = "/api/v1/webhooks/subscriptions";

    private static List<String> names(JsonNode data) {
        List<String> names = new ArrayList<>();
        data.forEach(e -> names.add(e.path("name").asText()));
        return names;
    }

    private static void switchProbe(TestPlatform platform, UUID workspace, boolean on) {
        platform.jdbi().useHandle(h -> h.createUpdate(on
                        ? "UPDATE lnp_core.workspaces SET disabled_modules = array_remove(disabled_modules, 'probe') WHERE id = :ws"
                        : "UPDATE lnp_core.workspaces SET disabled_modules = array_append(disabled_modules, 'probe') WHERE id = :ws")
                .bind("ws", workspace).execute());
    }

    private static String body(String... events) {
        return Json.mapper().createObjectNode().put("url", "http://127.0.0.1:9/hook")
                .set("events", Json.mapper().valueToTree(List.of(events))).toString();
    }

    @Test
    void eventsOfAModuleSwitchedOffAreNotListedAndCannotBeSubscribedTo(TestPlatform platform) {
        UUID off = platform.createWorkspace("catalog-off");
        UUID on = platform.createWorkspace("catalog-on");
        // The webhooks scope belongs to the core, so the key keeps reaching these routes with probe switched off.
        String offKey = platform.fullAccessKey(off);
        String onKey = platform.fullAccessKey(on);
        switchProbe(platform, off, false);

        List<String> listed = names(platform.get(EVENTS, offKey).data());
        assertTrue(listed.contains("webhooks.test"), listed.toString());
        assertFalse(listed.stream().anyMatch(n -> n.startsWith("probe.")), "probe is off: " + listed);
        List<String> other = names(platform.get(EVENTS, onKey).data());
        assertTrue(other.containsAll(List.of("probe.burst", "probe.other")), "another workspace is unaffected: " + other);

        for (String event : List.of("probe.burst", "burst.legacy", "probe.*")) {
            TestResponse refused = platform.post(SUBSCRIPTIONS, offKey, body("webhooks.test", event));
            assertEquals(422, refused.status(), event + ": " + refused.body());
            JsonNode error = refused.json().path("errors").get(0);
            assertEquals("/events/1", error.path("pointer").asText(), refused.body());
            assertTrue(error.path("message").asText().contains(event), refused.body());
            assertTrue(error.path("message").asText().contains("probe"), refused.body());
            assertTrue(error.path("message").asText().contains("switched off"), refused.body());
        }
        assertEquals(0, platform.get(SUBSCRIPTIONS, offKey).data().size(), "nothing was created");
        var everything = platform.post(SUBSCRIPTIONS, offKey, body("*"));
        assertEquals(201, everything.status(), everything.body());
        String id = everything.data().path("id").asText();
        var patched = platform.patch(SUBSCRIPTIONS + "/" + id, offKey, "{\"events\": [\"probe.other\"]}");
        assertEquals(422, patched.status(), patched.body());
        assertEquals("/events/0", patched.json().path("errors").get(0).path("pointer").asText());

        switchProbe(platform, off, true);
        assertTrue(names(platform.get(EVENTS, offKey).data()).contains("probe.burst"), "back once switched on");
        assertEquals(200, platform.patch(SUBSCRIPTIONS + "/" + id, offKey, "{\"events\": [\"probe.other\"]}").status());
    }

    @Test
    void theConsoleListsAndOffersOnlyEventsOfModulesThatAreOn(TestPlatform platform) {
        var owner = ConsoleWebhooksTest.owner(platform, "console-catalog");
        switchProbe(platform, owner.workspace(), false);

        var page = owner.client().get("/console/webhooks/events");
        assertEquals(200, page.status(), page.body());
        assertFalse(page.body().contains("<td>probe.burst</td>"), page.body());
        assertTrue(page.body().contains("<td>webhooks.test</td>"), page.body());

        // A form naming it anyway is refused by name, not silently dropped.
        var refused = owner.post(ConsoleWebhooksTest.NEW, "url", "http://127.0.0.1:9/hook", "enabled", "on",
                "events", "probe.burst");
        assertEquals(422, refused.status(), refused.body());
        assertTrue(refused.body().contains("probe.burst"), refused.body());
        assertTrue(refused.body().contains("switched off"), refused.body());
    }
}
