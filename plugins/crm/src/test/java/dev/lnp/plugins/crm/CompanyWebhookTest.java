package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import dev.lnp.testkit.WebhookReceiver;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The company events are in the webhook catalog and reach a subscription that names them, signed like any other. */
@PlatformTest(plugins = "crm", config = {"lnp.webhooks.allowed_networks=127.0.0.0/8",
        "lnp.webhooks.poll_interval_ms=200"})
class CompanyWebhookTest {

    private static final List<String> EVENTS = List.of("crm.company.created", "crm.company.updated",
            "crm.company.deleted");

    @Test
    void theCatalogListsEachCompanyEventWithItsAliasAndTheCompanySchema(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("company-catalog"));
        TestResponse catalog = platform.get("/api/v1/webhooks/events", key);
        assertEquals(200, catalog.status(), catalog.body());
        Map<String, JsonNode> byName = new HashMap<>();
        catalog.data().forEach(e -> byName.put(e.path("name").asText(), e));
        for (String name : EVENTS) {
            JsonNode event = byName.get(name);
            assertTrue(event != null, name + " is listed: " + byName.keySet());
            assertEquals("crm", event.path("plugin").asText(), name);
            assertEquals(name.substring("crm.".length()), event.path("aliases").path(0).asText(), name);
            assertEquals(Json.resource(CrmPlugin.class, "schemas/company.json"), event.path("payload_schema"), name);
        }
    }

    @Test
    void aSubscriptionToCrmCompanyReceivesCreateUpdateAndDelete(TestPlatform platform) {
        UUID workspace = platform.createWorkspace("company-hooks");
        String key = platform.fullAccessKey(workspace);
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> WebhookReceiver.Reply.status(204));
            TestResponse subscribed = platform.post("/api/v1/webhooks/subscriptions", key,
                    "{\"url\":\"" + receiver.url("/hook") + "\",\"events\":[\"crm.company.*\"]}");
            assertEquals(201, subscribed.status(), subscribed.body());
            // A contact event is not named by the subscription and is never delivered to it.
            platform.post("/api/v1/crm/contacts", key, "{\"email\":\"not-delivered@example.com\"}");

            JsonNode created = platform.post("/api/v1/crm/companies", key, "{\"name\":\"Hooked\"}").data();
            String id = created.path("id").asText();
            JsonNode updated = platform.patch("/api/v1/crm/companies/" + id, key, "{\"industry\":\"hooks\"}").data();
            assertEquals(200, platform.delete("/api/v1/crm/companies/" + id, key).status());

            WebhookReceiver.await(Duration.ofSeconds(30), "three company deliveries",
                    () -> receiver.received().size() >= 3);
            Map<String, JsonNode> delivered = new HashMap<>();
            receiver.received().forEach(r -> delivered.put(r.event(), r.json()));
            assertEquals(3, receiver.received().size(), delivered.keySet().toString());
            assertEquals(java.util.Set.copyOf(EVENTS), delivered.keySet());
            assertEquals(created, delivered.get("crm.company.created").path("data"));
            assertEquals(updated, delivered.get("crm.company.updated").path("data"));
            assertEquals(updated, delivered.get("crm.company.deleted").path("data"), "the deleted company's last state");
            assertEquals(workspace.toString(), delivered.get("crm.company.deleted").path("workspace_id").asText());
        }
    }
}
