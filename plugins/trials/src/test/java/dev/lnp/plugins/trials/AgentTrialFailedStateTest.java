package dev.lnp.plugins.trials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code failed} state: an approved request whose workspace cannot be seeded (here the CRM quota allows one
 * write, so the second sample contact is refused) ends failed; the agent is told so, gets no key, and the owner's
 * page no longer offers a decision.
 */
class AgentTrialFailedStateTest {

    private static Mailbox mail;
    private static TestPlatform platform;

    @BeforeAll
    static void start() {
        mail = new Mailbox();
        Map<String, String> config = new HashMap<>(mail.platformConfig());
        config.put("lnp.quotas.crm.monthly", "1");
        platform = TestPlatform.start("trials_failed", List.of("trials", "mcp", "crm"), null, config);
    }

    @AfterAll
    static void stop() {
        if (platform != null) {
            platform.close();
        }
        if (mail != null) {
            mail.close();
        }
    }

    @Test
    void aTrialWhoseSampleDataCannotBeWrittenEndsFailedWithoutAKey() {
        String owner = "failing-" + UUID.randomUUID().toString().substring(0, 8) + "@example.org";
        JsonNode accepted = Agent.submit(platform, owner, "Failing trial");
        String link = mail.awaitApprovalLink(owner, 1);
        new Owner(platform.port(), mail, owner).decide(link, "approve");

        String state = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT state || ' ' || reason FROM trials.requests WHERE id = :id")
                .bind("id", UUID.fromString(accepted.path("request_id").asText())).mapTo(String.class).one());
        assertEquals("failed sample_data_failed", state);

        TestResponse s = Agent.status(platform, accepted.path("request_token").asText());
        assertEquals(200, s.status(), s.toString());
        assertEquals("failed", s.json().path("state").asText());
        assertTrue(s.json().path("terminal").asBoolean());
        assertEquals("sample_data_failed", s.json().path("reason").asText());
        assertFalse(s.json().has("api_key"), s.body());
        // Terminal: polling again answers the same, never a key.
        TestResponse again = Agent.status(platform, accepted.path("request_token").asText());
        assertEquals("failed", again.json().path("state").asText());
        assertFalse(again.json().has("api_key"));

        Owner.Page page = new Owner(platform.port(), mail, owner).get(link);
        assertEquals(200, page.status());
        assertFalse(page.hasButton("approve"), page.body());
    }
}
