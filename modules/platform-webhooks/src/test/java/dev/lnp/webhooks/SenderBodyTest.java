package dev.lnp.webhooks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The body around the payload's text: valid JSON, the payload's bytes untouched, the same bytes on every attempt. */
class SenderBodyTest {

    private static ClaimedDelivery delivery(String eventName, String payload, int attempts) {
        return new ClaimedDelivery(UUID.fromString("00000000-0000-0000-0000-000000000001"), UUID.randomUUID(),
                Instant.now(), UUID.randomUUID(), UUID.fromString("00000000-0000-0000-0000-000000000003"),
                UUID.fromString("00000000-0000-0000-0000-000000000002"), eventName, false, "http://127.0.0.1/",
                attempts, attempts, Instant.now(), Instant.parse("2026-03-01T10:00:00.123456Z"), payload,
                List.of("whsec_x"));
    }

    @Test
    void theFieldsComeFirstAndDataIsThePayloadTextAsStored() {
        // PostgreSQL's text of a jsonb value: spaces after ':' and ',', numbers with their scale.
        String payload = "{\"id\": \"c1\", \"value\": 1500.50, \"name\": \"Ødegaard \\\"Ø\\\"\", \"tags\": [1, 2]}";
        String body = new String(Sender.body(delivery("crm.contact.created", payload, 0)), StandardCharsets.UTF_8);
        assertEquals("{\"delivery_id\":\"00000000-0000-0000-0000-000000000001\","
                + "\"event_id\":\"00000000-0000-0000-0000-000000000002\",\"event\":\"crm.contact.created\","
                + "\"workspace_id\":\"00000000-0000-0000-0000-000000000003\","
                + "\"occurred_at\":\"2026-03-01T10:00:00.123456Z\",\"data\":" + payload + "}", body);
    }

    @Test
    void everyAttemptSendsTheSameBytes() {
        String payload = "{\"a\": [1, {\"b\": null}], \"é\": \"\\u0001\"}";
        assertArrayEquals(Sender.body(delivery("x.y", payload, 0)), Sender.body(delivery("x.y", payload, 3)));
    }

    @Test
    void theBodyIsValidJsonWhateverTheNameAndPayloadHold() {
        String payload = "[\"}\", \"\\\"\", 1e3, true]";
        JsonNode body = Json.parse(new String(Sender.body(delivery("odd\"name\\\n", payload, 0)), StandardCharsets.UTF_8));
        assertEquals("odd\"name\\\n", body.path("event").asText());
        assertEquals(Json.parse(payload), body.path("data"));
        assertTrue(body.path("data").isArray());
    }
}
