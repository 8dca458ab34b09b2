package dev.lnp.plugins.trials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The abuse limits, counted in PostgreSQL: requests per owner address and per client per hour, pending requests
 * per owner, approval mails per address per day; 429 with Retry-After; and answers that are the same whether or
 * not an address has an account.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentTrialLimitsTest {

    private static Mailbox mail;
    private static TestPlatform platform;

    @BeforeAll
    static void start() {
        mail = new Mailbox();
        Map<String, String> config = new HashMap<>(mail.platformConfig());
        config.put("lnp.trials.limits.requests_per_owner_per_hour", "3");
        config.put("lnp.trials.limits.pending_per_owner", "2");
        config.put("lnp.trials.limits.mails_per_address_per_day", "2");
        config.put("lnp.trials.limits.requests_per_client_per_hour", "14");
        platform = TestPlatform.start("trials_limits", List.of("trials", "crm", "projects", "issues"), null, config);
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

    private static TestResponse submit(String email) {
        return platform.post(TrialRoutes.SUBMIT, null,
                Agent.body(Agent.challenge(platform), email, "Limits").toString());
    }

    /** What a response says, without its ids and secrets. */
    private static String shape(TestResponse r) {
        JsonNode body = r.json();
        List<String> keys = new ArrayList<>();
        body.fieldNames().forEachRemaining(keys::add);
        return r.status() + " " + body.path("code").asText() + " " + body.path("state").asText() + " " + keys
                + " " + r.header("Retry-After").isPresent();
    }

    @Test
    @Order(1)
    void knownAndUnknownAddressesGetTheSameAnswers() {
        String known = "known-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        platform.workspaces().create("Existing company", known);
        String unknown = "unknown-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        List<String> forKnown = new ArrayList<>();
        List<String> forUnknown = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            forKnown.add(shape(submit(known)));
            forUnknown.add(shape(submit(unknown)));
        }
        assertEquals(forKnown, forUnknown);
        assertTrue(forKnown.get(0).startsWith("202"), forKnown.toString());
        assertTrue(forKnown.get(2).startsWith("429 trial_limit_exceeded"), forKnown.toString());
        mail.awaitText(known, 2);
        mail.awaitText(unknown, 2);
        assertEquals(2, mail.messagesTo(known).size());
        assertEquals(2, mail.messagesTo(unknown).size());
    }

    @Test
    @Order(2)
    void pendingPerOwnerThenRequestsPerOwnerPerHour() {
        String owner = "busy-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        JsonNode first = submit(owner).json();
        assertEquals(202, submit(owner).status());
        TestResponse pending = submit(owner);
        assertEquals(429, pending.status(), pending.toString());
        assertEquals("pending_per_owner", pending.json().path("errors").path(0).path("rule").asText());
        assertTrue(pending.header("Retry-After").isPresent());
        // The owner denies one: pending is free again, but the hour's three requests are used.
        new Owner(platform.port(), mail, owner).decide(mail.awaitApprovalLink(owner, 1), "deny");
        TestResponse perHour = submit(owner);
        assertEquals(429, perHour.status(), perHour.toString());
        assertEquals("requests_per_owner", perHour.json().path("errors").path(0).path("rule").asText());
        long retry = Long.parseLong(perHour.header("Retry-After").orElseThrow());
        assertTrue(retry >= 1 && retry <= 3601, "until the next hour: " + retry);
        assertEquals("denied", Agent.status(platform, first.path("request_token").asText()).json().path("state")
                .asText());
    }

    @Test
    @Order(3)
    void mailsPerAddressPerDayThenRequestsPerClient() {
        String owner = "mailed-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        Owner person = new Owner(platform.port(), mail, owner);
        assertEquals(202, submit(owner).status());
        person.decide(mail.awaitApprovalLink(owner, 1), "deny");
        assertEquals(202, submit(owner).status());
        person.decide(mail.awaitApprovalLink(owner, 2), "deny");
        TestResponse mails = submit(owner);
        assertEquals(429, mails.status(), mails.toString());
        assertEquals("mails_per_address", mails.json().path("errors").path(0).path("rule").asText());
        assertTrue(Long.parseLong(mails.header("Retry-After").orElseThrow()) <= 86_401);
        assertEquals(2, mail.matching(owner, Mailbox.APPROVAL_LINK).size(), "no third approval mail");

        // This client has made 6 + 4 + 3 = 13 attempts this hour; the limit is 14.
        assertEquals(202, submit("fresh-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com").status());
        TestResponse client = submit("other-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com");
        assertEquals(429, client.status(), client.toString());
        assertEquals("requests_per_client", client.json().path("errors").path(0).path("rule").asText());
        assertTrue(client.header("Retry-After").isPresent());
    }
}
