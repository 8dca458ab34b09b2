package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contact's {@code created} event is written by the insert statement itself; the payload limit still refuses
 * the change as a whole: no contact, no counter, no event.
 */
@PlatformTest(plugins = "crm", config = "lnp.webhooks.max_payload_bytes=2048")
class ContactEventLimitTest {

    private static UUID workspace;
    private static String key;

    @BeforeAll
    static void keys(TestPlatform platform) {
        workspace = platform.createWorkspace("event-limit");
        key = platform.fullAccessKey(workspace);
    }

    private static long count(TestPlatform platform, String sql) {
        return platform.jdbi().withHandle(h -> h.createQuery(sql).bind("ws", workspace).mapTo(Long.class).one());
    }

    private static long outboxRows(TestPlatform platform) {
        return count(platform, "SELECT count(*) FROM lnp_core.outbox WHERE workspace_id = :ws");
    }

    private static long counted(TestPlatform platform) {
        return count(platform, "SELECT coalesce(sum(n), 0) FROM crm.contact_counts WHERE workspace_id = :ws");
    }

    @Test
    void aContactWhoseEventIsOverTheLimitIsRefusedWithNothingWritten(TestPlatform platform) {
        long events = outboxRows(platform);
        long total = counted(platform);
        var response = platform.post("/api/v1/crm/contacts", key,
                "{\"email\":\"big@example.com\",\"notes\":\"" + "x".repeat(3000) + "\"}");

        assertEquals(413, response.status(), response.body());
        assertEquals("payload_too_large", response.json().path("code").asText());
        assertTrue(response.json().path("detail").asText().contains("crm.contact.created"), response.body());
        assertEquals(0, count(platform, "SELECT count(*) FROM crm.contacts WHERE workspace_id = :ws AND email = 'big@example.com'"));
        assertEquals(events, outboxRows(platform));
        assertEquals(total, counted(platform));
    }

    @Test
    void aContactWhoseEventFitsIsWrittenWithItsEvent(TestPlatform platform) {
        long events = outboxRows(platform);
        long total = counted(platform);
        var response = platform.post("/api/v1/crm/contacts", key,
                "{\"email\":\"fits@example.com\",\"notes\":\"" + "x".repeat(1000) + "\"}");

        assertEquals(201, response.status(), response.body());
        assertEquals(events + 1, outboxRows(platform));
        assertEquals(total + 1, counted(platform));
    }
}
