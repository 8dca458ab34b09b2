package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static dev.lnp.testkit.webhooks.Hooks.SUBSCRIPTIONS;
import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.seconds;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.webhooks.signature.WebhookSignature;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.testkit.WebhookReceiver.Reply;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** End to end over real HTTP: commit, fan-out, signed delivery, classification, history, redelivery. */
@PlatformTest(plugins = "probe", config = {
        "lnp.webhooks.allowed_networks=127.0.0.0/8",
        "lnp.webhooks.request_timeout_ms=1000",
        "lnp.webhooks.lease_seconds=5",
        "lnp.webhooks.per_receiver=4",
        "lnp.webhooks.breaker_failures=5",
        "lnp.webhooks.breaker_delay_seconds=2",
        "lnp.webhooks.poll_interval_ms=200"})
class WebhookDeliveryTest {

    @Test
    void aCommittedEventArrivesSignedWithItsIdsInHeadersAndBody(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("signed");
        String key = platform.fullAccessKey(ws);
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(200).withBody("{\"ok\": true}"));
            var sub = subscribe(platform, key, receiver.url("/hook"), "probe.burst");
            publish(platform, key, 1, "probe.burst");
            Hooks.awaitReceived(platform, receiver, 1, sub.id(), "one delivery");
            var request = receiver.received().get(0);

            WebhookSignature.verify(sub.secret(), request.timestamp(), request.signature(), request.body(), Instant.now());
            assertTrue(request.signature().matches("sha256=[0-9a-f]{64}"), request.signature());
            assertEquals(1, request.header("X-Service-Signature").size());
            assertEquals(List.of(), request.header("X-Service-Signature-Next"), "only during a rotation");
            assertTrue(Math.abs(Long.parseLong(request.timestamp()) - Instant.now().getEpochSecond()) < 30);
            assertEquals(List.of(request.deliveryId()), request.header("webhook-id"));
            assertEquals(List.of(request.timestamp()), request.header("webhook-timestamp"));
            assertEquals(List.of(standardWebhookSignature(sub.secret(), request)), request.header("webhook-signature"));
            assertEquals("probe.burst", request.event());
            assertEquals("1", request.attempt());

            JsonNode body = request.json();
            assertEquals(request.deliveryId(), body.path("delivery_id").asText(), "the id is inside the signed body");
            assertEquals("probe.burst", body.path("event").asText());
            assertEquals(ws.toString(), body.path("workspace_id").asText());
            assertEquals(0, body.path("data").path("i").asInt());
            Instant.parse(body.path("occurred_at").asText());
            UUID eventId = UUID.fromString(body.path("event_id").asText());
            assertEquals(1, Hooks.count(platform.jdbi(), "SELECT count(*) FROM lnp_core.outbox WHERE id = ? AND event_name = 'probe.burst'", eventId));

            await(seconds(10), "delivered", () -> Hooks.states(platform.jdbi(), sub.id()).containsValue("delivered"));
            JsonNode delivery = Hooks.delivery(platform, key, sub.id(), request.deliveryId());
            assertEquals("delivered", delivery.path("status").asText());
            assertEquals(1, delivery.path("attempts").asInt());
            JsonNode attempt = delivery.path("attempt_history").get(0);
            assertEquals(200, attempt.path("status_code").asInt());
            assertEquals("delivered", attempt.path("outcome").asText());
            assertEquals("{\"ok\": true}", attempt.path("response_body").asText());
            assertTrue(attempt.path("duration_ms").asInt() >= 0);
            Instant.parse(attempt.path("at").asText());
            assertTrue(attempt.path("error").isNull());

            var list = platform.get(SUBSCRIPTIONS + "/" + sub.id() + "/deliveries?status=delivered", key);
            assertEquals(1, list.data().size(), list.body());
            assertEquals(request.deliveryId(), list.data().get(0).path("id").asText());
            assertEquals(0, platform.get(SUBSCRIPTIONS + "/" + sub.id() + "/deliveries?status=failed", key).data().size());
        }
    }

    /**
     * Commits wake the dispatcher through the node's one listening connection (the core's Notifications), outside the
     * pool, with its settings: no second connection of its own.
     */
    @Test
    void theDispatcherListensThroughTheNodesOneListeningConnection(TestPlatform platform) {
        await(seconds(10), "a LISTEN connection of the platform", () -> Hooks.count(platform.jdbi(), LISTENING) >= 1);
        assertEquals(1, Hooks.count(platform.jdbi(), LISTENING), "one listening connection for the node");
    }

    private static final String LISTENING = """
            SELECT count(*) FROM pg_stat_activity
             WHERE datname = current_database() AND application_name = 'lnp-platform'
               AND query ILIKE 'LISTEN%'
            """;

    /** The commit's NOTIFY wakes the dispatcher at once: with a poll of a minute, the event still arrives in seconds. */
    @Test
    void aCommitWakesTheDispatcherLongBeforeItsNextPoll() throws Exception {
        try (var slowPolling = TestPlatform.start("wake", List.of("probe"), null, java.util.Map.of(
                "lnp.webhooks.allowed_networks", "127.0.0.0/8", "lnp.webhooks.poll_interval_ms", "60000"));
                var receiver = new WebhookReceiver()) {
            String key = slowPolling.fullAccessKey(slowPolling.createWorkspace("wake"));
            subscribe(slowPolling, key, receiver.url("/hook"), "probe.burst");
            await(seconds(10), "the node listening", () -> Hooks.count(slowPolling.jdbi(), LISTENING) == 1);
            long started = System.nanoTime();
            publish(slowPolling, key, 1, "probe.burst");
            await(seconds(10), "the delivery", () -> receiver.received().size() == 1);
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(millis < 10_000, "delivered " + millis + " ms after the commit");
        }
    }

    /**
     * A commit's notice wakes only the dispatcher's fan-out, which leases what it writes; a redelivery and a test
     * delivery write no outbox row for it, so their notice wakes the claims too. With a poll of a minute, both still
     * arrive in seconds.
     */
    @Test
    void aRedeliveryAndATestDeliveryWakeTheClaimsLongBeforeTheirNextPoll() throws Exception {
        try (var slowPolling = TestPlatform.start("wake-claims", List.of("probe"), null, java.util.Map.of(
                "lnp.webhooks.allowed_networks", "127.0.0.0/8", "lnp.webhooks.poll_interval_ms", "60000"));
                var receiver = new WebhookReceiver()) {
            String key = slowPolling.fullAccessKey(slowPolling.createWorkspace("wake claims"));
            var sub = subscribe(slowPolling, key, receiver.url("/hook"), "probe.burst");
            await(seconds(10), "the node listening", () -> Hooks.count(slowPolling.jdbi(), LISTENING) == 1);
            publish(slowPolling, key, 1, "probe.burst");
            await(seconds(10), "the delivery", () -> receiver.received().size() == 1);
            String deliveryId = receiver.received().getFirst().deliveryId();
            await(seconds(10), "the attempt recorded", () -> "delivered".equals(
                    Hooks.delivery(slowPolling, key, sub.id(), deliveryId).path("status").asText()));

            var redelivered = slowPolling.post(Hooks.SUBSCRIPTIONS + "/" + sub.id() + "/deliveries/" + deliveryId
                    + "/redeliver", key, null);
            assertEquals(202, redelivered.status(), redelivered.body());
            await(seconds(10), "the redelivery", () -> receiver.receivedFor(deliveryId).size() == 2);

            var test = slowPolling.post(Hooks.SUBSCRIPTIONS + "/" + sub.id() + "/test", key, null);
            assertEquals(202, test.status(), test.body());
            await(seconds(10), "the test delivery", () -> receiver.received().stream()
                    .anyMatch(r -> r.event().equals("webhooks.test")));
        }
    }

    @Test
    void aRolledBackChangePublishesNothing(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("rollback"));
        try (var receiver = new WebhookReceiver()) {
            subscribe(platform, key, receiver.url("/hook"), "*");
            var failed = platform.post("/api/v1/probe/events", key, "{\"count\": 3, \"fail\": true}");
            assertEquals(409, failed.status(), failed.body());
            publish(platform, key, 1, "probe.other");
            await(seconds(10), "the committed event", () -> receiver.received().size() == 1);
            assertEquals("probe.other", receiver.received().get(0).event(), "the rolled-back burst never arrives");
            assertEquals(0, Hooks.count(platform.jdbi(), "SELECT count(*) FROM lnp_core.outbox WHERE event_name = 'probe.burst'"
                    + " AND workspace_id = ?", platform.principal(key).workspaceId()));
        }
    }

    @Test
    void aNameAndItsAliasGiveOneDeliveryUnderTheCanonicalName(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("alias");
        String key = platform.fullAccessKey(ws);
        try (var receiver = new WebhookReceiver()) {
            var sub = subscribe(platform, key, receiver.url("/via-api"), "burst.legacy", "probe.burst");
            // A subscription stored with overlapping entries (a name, a wildcard, everything) still gets one.
            UUID raw = UUID.randomUUID();
            platform.jdbi().useHandle(h -> {
                h.execute("INSERT INTO lnp_core.webhook_subscriptions (id, workspace_id, url, events, created_at, updated_at) "
                        + "VALUES (?, ?, ?, ARRAY['probe.burst', 'burst.legacy', 'probe.*', '*'], now(), now())",
                        raw, ws, receiver.url("/raw"));
                h.execute("INSERT INTO lnp_core.webhook_secrets (subscription_id, workspace_id, secret, created_at) "
                        + "VALUES (?, ?, 'whsec_raw-subscription-secret-0000000000000', now())", raw, ws);
            });
            publish(platform, key, 2, "burst.legacy");
            await(seconds(10), "two events to each subscription", () -> receiver.received().size() == 4);
            Hooks.drain(platform.jdbi(), ws);
            assertEquals(4, receiver.received().size(), "exactly one delivery per event and subscription");
            for (var request : receiver.received()) {
                assertEquals("probe.burst", request.event(), "the canonical name, not the alias published");
                assertEquals("probe.burst", request.json().path("event").asText());
            }
            assertEquals(2, Hooks.states(platform.jdbi(), sub.id()).size());
            assertEquals(2, Hooks.states(platform.jdbi(), raw).size());
        }
    }

    @Test
    void wildcardsMatchByPrefixAndOtherEventsStayAway(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("wildcard"));
        try (var all = new WebhookReceiver(); var other = new WebhookReceiver()) {
            subscribe(platform, key, all.url("/all"), "probe.*");
            subscribe(platform, key, other.url("/other"), "probe.other");
            publish(platform, key, 1, "probe.burst");
            publish(platform, key, 1, "probe.other");
            await(seconds(10), "both events at the wildcard", () -> all.received().size() == 2);
            await(seconds(10), "one at the other", () -> other.received().size() == 1);
            assertEquals("probe.other", other.received().get(0).event());
        }
    }

    @Test
    void anotherWorkspacesEventsNeverArrive(TestPlatform platform) throws Exception {
        UUID a = platform.createWorkspace("tenant-a");
        UUID b = platform.createWorkspace("tenant-b");
        String mine = platform.fullAccessKey(a);
        String theirs = platform.fullAccessKey(b);
        try (var receiver = new WebhookReceiver()) {
            subscribe(platform, mine, receiver.url("/a"), "*");
            publish(platform, theirs, 3, "probe.burst");
            publish(platform, mine, 1, "probe.other");
            await(seconds(10), "own event", () -> receiver.received().size() == 1);
            Hooks.drain(platform.jdbi(), b, a);
            assertEquals(1, receiver.received().size());
        }
    }

    /** Each status the issue names: what the attempt records and what happens next. */
    @ParameterizedTest
    @ValueSource(ints = {200, 204, 400, 404, 410, 422, 429, 500, 503, 302})
    void theReceiversStatusDecidesWhatFollows(int status, TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("status-" + status));
        try (var receiver = new WebhookReceiver(); var elsewhere = new WebhookReceiver()) {
            receiver.respond(r -> {
                Reply reply = Reply.status(status).withBody("status " + status);
                if (status == 429) {
                    reply = reply.withHeader("Retry-After", "120");
                }
                if (status == 302) {
                    reply = reply.withHeader("Location", elsewhere.url("/moved"));
                }
                return reply;
            });
            var sub = subscribe(platform, key, receiver.url("/hook"), "probe.burst");
            Instant before = Instant.now();
            publish(platform, key, 1, "probe.burst");
            await(seconds(10), "the first attempt recorded", () -> Hooks.attempts(platform.jdbi(), sub.id()) == 1);
            String id = receiver.received().get(0).deliveryId();
            JsonNode delivery = Hooks.delivery(platform, key, sub.id(), id);
            JsonNode attempt = delivery.path("attempt_history").get(0);
            assertEquals(status, attempt.path("status_code").asInt());
            assertEquals(status == 204 ? "" : "status " + status, attempt.path("response_body").asText(""));
            switch (status) {
                case 200, 204 -> {
                    assertEquals("delivered", delivery.path("status").asText());
                    assertTrue(delivery.path("next_attempt_at").isNull());
                }
                case 400, 404, 410, 422 -> {
                    assertEquals("failed", delivery.path("status").asText(), "4xx is permanent");
                    assertEquals("failed", attempt.path("outcome").asText());
                    assertTrue(delivery.path("next_attempt_at").isNull(), "never tried again");
                    assertTrue(attempt.path("error").asText().contains("not retried"), attempt.toString());
                }
                default -> {
                    assertEquals("pending", delivery.path("status").asText(), status + " is retried");
                    assertEquals("retry", attempt.path("outcome").asText());
                    Duration wait = Duration.between(before, Instant.parse(delivery.path("next_attempt_at").asText()));
                    if (status == 429) {
                        assertTrue(wait.toSeconds() >= 118 && wait.toSeconds() <= 125, "Retry-After 120 honoured: " + wait);
                    } else {
                        assertTrue(wait.toMillis() >= 4_400 && wait.toMillis() <= 8_000, "about 5 s: " + wait);
                    }
                }
            }
            if (status == 302) {
                assertTrue(attempt.path("error").asText().contains("redirects are not followed"), attempt.toString());
                assertEquals(0, elsewhere.received().size(), "the redirect is not followed");
            }
            Hooks.unsubscribe(platform, key, sub.id());
        }
    }

    @Test
    void aReceiverTooSlowToAnswerTimesOutAndIsRetried(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("timeout"));
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(200).after(Duration.ofMillis(2500)));
            var sub = subscribe(platform, key, receiver.url("/slow"), "probe.burst");
            long started = System.nanoTime();
            publish(platform, key, 1, "probe.burst");
            await(seconds(10), "the attempt recorded", () -> Hooks.attempts(platform.jdbi(), sub.id()) == 1);
            assertTrue(System.nanoTime() - started < 2_400_000_000L, "given up after the 1 s timeout, not the 2.5 s answer");
            JsonNode delivery = Hooks.delivery(platform, key, sub.id(), receiver.received().get(0).deliveryId());
            assertEquals("pending", delivery.path("status").asText());
            JsonNode attempt = delivery.path("attempt_history").get(0);
            assertTrue(attempt.path("status_code").isNull());
            assertTrue(attempt.path("error").asText().contains("1000 ms"), attempt.toString());
            Hooks.unsubscribe(platform, key, sub.id());
        }
    }

    @Test
    void aRefusedConnectionIsRetried(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("refused"));
        int closedPort;
        try (var socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        var sub = subscribe(platform, key, "http://127.0.0.1:" + closedPort + "/nobody", "probe.burst");
        publish(platform, key, 1, "probe.burst");
        await(seconds(10), "the attempt recorded", () -> Hooks.attempts(platform.jdbi(), sub.id()) == 1);
        var list = platform.get(SUBSCRIPTIONS + "/" + sub.id() + "/deliveries", key).data();
        JsonNode delivery = Hooks.delivery(platform, key, sub.id(), list.get(0).path("id").asText());
        assertEquals("pending", delivery.path("status").asText());
        assertTrue(delivery.path("attempt_history").get(0).path("error").asText().contains("connection"),
                delivery.toString());
        Hooks.unsubscribe(platform, key, sub.id());
    }

    @Test
    void aRetryCarriesTheSameDeliveryIdSignedAfresh(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("retry"));
        try (var receiver = new WebhookReceiver()) {
            AtomicInteger calls = new AtomicInteger();
            receiver.respond(r -> Reply.status(calls.incrementAndGet() == 1 ? 503 : 200));
            var sub = subscribe(platform, key, receiver.url("/flaky"), "probe.burst");
            publish(platform, key, 1, "probe.burst");
            await(seconds(20), "the retry", () -> receiver.received().size() == 2);
            var first = receiver.received().get(0);
            var second = receiver.received().get(1);
            assertEquals(first.deliveryId(), second.deliveryId());
            assertEquals("2", second.attempt());
            assertTrue(Long.parseLong(second.timestamp()) - Long.parseLong(first.timestamp()) >= 4, "about 5 s later");
            assertNotEquals(first.signature(), second.signature(), "each attempt is signed with its own timestamp");
            WebhookSignature.verify(sub.secret(), second.timestamp(), second.signature(), second.body(), Instant.now());
            await(seconds(10), "delivered", () -> Hooks.states(platform.jdbi(), sub.id()).containsValue("delivered"));
            assertEquals(2, Hooks.delivery(platform, key, sub.id(), first.deliveryId()).path("attempt_history").size());
        }
    }

    @Test
    void duringRotationTheContractHeaderKeepsOneSignatureByThePreviousSecret(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("rotation"));
        try (var receiver = new WebhookReceiver()) {
            var sub = subscribe(platform, key, receiver.url("/rotating"), "probe.burst");
            String fresh = platform.post(SUBSCRIPTIONS + "/" + sub.id() + "/rotate-secret", key, null).data()
                    .path("secret").asText();
            publish(platform, key, 1, "probe.burst");
            Hooks.awaitReceived(platform, receiver, 1, sub.id(), "delivery");
            var request = receiver.received().get(0);
            long timestamp = Long.parseLong(request.timestamp());
            assertTrue(request.signature().matches("sha256=[0-9a-f]{64}"), "exactly one signature: " + request.signature());
            assertEquals(hexHmac(sub.secret(), request), request.signature(),
                    "a receiver that has not updated yet compares the header in full and still matches");
            assertEquals(List.of(hexHmac(fresh, request)), request.header("X-Service-Signature-Next"));
            String next = request.header("X-Service-Signature-Next").get(0);
            assertTrue(WebhookSignature.isValid(fresh, request.timestamp(), request.signature(), next, request.body(),
                    Instant.now()), "an updated receiver with the shipped verifier");
            assertTrue(WebhookSignature.isValid(sub.secret(), request.timestamp(), request.signature(), next,
                    request.body(), Instant.now()));
            assertEquals(List.of(standardWebhookSignature(fresh, request) + " " + standardWebhookSignature(sub.secret(), request)),
                    request.header("webhook-signature"), "Standard Webhooks: one v1 per valid secret, newest first");
            assertEquals(WebhookSignature.sign(sub.secret(), timestamp, request.body()), request.signature());

            // Once the overlap is over, the new secret signs the contract header and the next header is gone.
            platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.webhook_secrets SET expires_at = now() - interval '1 second' "
                    + "WHERE subscription_id = ? AND expires_at IS NOT NULL", sub.id()));
            publish(platform, key, 1, "probe.burst");
            Hooks.awaitReceived(platform, receiver, 2, sub.id(), "second delivery");
            var after = receiver.received().get(1);
            assertEquals(hexHmac(fresh, after), after.signature());
            assertEquals(List.of(), after.header("X-Service-Signature-Next"));
            assertEquals(List.of(standardWebhookSignature(fresh, after)), after.header("webhook-signature"));
        }
    }

    /** X-Service-Signature computed here, independently of the platform's signer: key = the secret's UTF-8 bytes. */
    private static String hexHmac(String secret, WebhookReceiver.Received request) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((request.timestamp() + ".").getBytes(StandardCharsets.US_ASCII));
        return "sha256=" + HexFormat.of().formatHex(mac.doFinal(request.body()));
    }

    /** The Standard Webhooks signature computed here: key = base64-decoded secret after whsec_, over id.ts.body. */
    private static String standardWebhookSignature(String secret, WebhookReceiver.Received request) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
        mac.update((request.deliveryId() + "." + request.timestamp() + ".").getBytes(StandardCharsets.UTF_8));
        return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(request.body()));
    }

    @Test
    void theTestRouteSendsATestPayloadEvenToASwitchedOffSubscription(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("ping");
        String key = platform.fullAccessKey(ws);
        try (var receiver = new WebhookReceiver()) {
            var sub = subscribe(platform, key, receiver.url("/ping"), "probe.other");
            platform.patch(SUBSCRIPTIONS + "/" + sub.id(), key, "{\"enabled\": false}");
            var test = platform.post(SUBSCRIPTIONS + "/" + sub.id() + "/test", key, null);
            assertEquals(202, test.status(), test.body());
            await(seconds(10), "the test delivery", () -> receiver.received().size() == 1);
            var request = receiver.received().get(0);
            assertEquals(test.data().path("delivery_id").asText(), request.deliveryId());
            assertEquals("webhooks.test", request.event());
            assertEquals(sub.id().toString(), request.json().path("data").path("subscription_id").asText());
            WebhookSignature.verify(sub.secret(), request.timestamp(), request.signature(), request.body(), Instant.now());
            await(seconds(10), "recorded", () -> Hooks.states(platform.jdbi(), sub.id()).containsValue("delivered"));
            var listed = platform.get(SUBSCRIPTIONS + "/" + sub.id() + "/deliveries", key).data().get(0);
            assertTrue(listed.path("test").asBoolean());
            publish(platform, key, 1, "probe.other");
            Hooks.drain(platform.jdbi(), ws);
            assertEquals(1, receiver.received().size(), "a switched-off subscription gets no events");
        }
    }

    @Test
    void redeliverSendsTheSameDeliveryAgain(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("redeliver"));
        try (var receiver = new WebhookReceiver()) {
            var sub = subscribe(platform, key, receiver.url("/again"), "probe.burst");
            publish(platform, key, 1, "probe.burst");
            await(seconds(10), "delivered", () -> Hooks.states(platform.jdbi(), sub.id()).containsValue("delivered"));
            String id = receiver.received().get(0).deliveryId();
            var again = platform.post(SUBSCRIPTIONS + "/" + sub.id() + "/deliveries/" + id + "/redeliver", key, null);
            assertEquals(202, again.status(), again.body());
            await(seconds(10), "sent again", () -> receiver.received().size() == 2);
            assertEquals(id, receiver.received().get(1).deliveryId());
            await(seconds(10), "two attempts", () -> Hooks.attempts(platform.jdbi(), sub.id()) == 2);
            assertEquals(404, platform.post(SUBSCRIPTIONS + "/" + sub.id() + "/deliveries/" + UUID.randomUUID()
                    + "/redeliver", key, null).status());
        }
    }

    @Test
    void recoverSendsAgainWhatFailedSinceAGivenTime(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("recover"));
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(410));
            var sub = subscribe(platform, key, receiver.url("/gone"), "probe.burst");
            Instant before = Instant.now().minusSeconds(1);
            publish(platform, key, 3, "probe.burst");
            await(seconds(10), "three permanent failures", () -> Hooks.states(platform.jdbi(), sub.id()).values().stream()
                    .filter("failed"::equals).count() == 3);
            Set<String> failedIds = new HashSet<>();
            receiver.received().forEach(r -> failedIds.add(r.deliveryId()));
            receiver.respond(r -> Reply.status(200));

            var later = platform.post(SUBSCRIPTIONS + "/" + sub.id() + "/recover", key,
                    "{\"since\": \"" + Instant.now().plusSeconds(60) + "\"}");
            assertEquals(0, later.data().path("requeued").asInt(), "nothing failed after that time");
            var recovered = platform.post(SUBSCRIPTIONS + "/" + sub.id() + "/recover", key, "{\"since\": \"" + before + "\"}");
            assertEquals(202, recovered.status(), recovered.body());
            assertEquals(3, recovered.data().path("requeued").asInt());
            await(seconds(10), "all delivered", () -> Hooks.states(platform.jdbi(), sub.id()).values().stream()
                    .allMatch("delivered"::equals));
            Set<String> resent = new HashSet<>();
            receiver.received().subList(3, receiver.received().size()).forEach(r -> resent.add(r.deliveryId()));
            assertEquals(failedIds, resent, "the same delivery ids");
        }
    }

    @Test
    void theHistoryKeepsTheFirst64KiBOfAResponse(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("big"));
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(200).withBody("é".repeat(50_000))); // 100,000 bytes
            var sub = subscribe(platform, key, receiver.url("/big"), "probe.burst");
            publish(platform, key, 1, "probe.burst");
            await(seconds(10), "recorded", () -> Hooks.attempts(platform.jdbi(), sub.id()) == 1);
            JsonNode attempt = Hooks.delivery(platform, key, sub.id(), receiver.received().get(0).deliveryId())
                    .path("attempt_history").get(0);
            assertTrue(attempt.path("response_truncated").asBoolean());
            assertEquals(32_768, attempt.path("response_body").asText().length(), "65,536 bytes of two-byte characters");
        }
    }

    @Test
    void aFailingReceiverIsProbedNotHammeredAndDoesNotSlowOthers(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("isolation"));
        try (var failing = new WebhookReceiver(); var healthy = new WebhookReceiver()) {
            failing.respond(r -> Reply.status(200).after(Duration.ofMillis(1500))); // always times out
            healthy.respond(r -> Reply.status(200).after(Duration.ofMillis(50)));
            var bad = subscribe(platform, key, failing.url("/down"), "probe.other");
            var good = subscribe(platform, key, healthy.url("/up"), "probe.burst");
            publish(platform, key, 30, "probe.other");
            long started = System.nanoTime();
            publish(platform, key, 30, "probe.burst");
            await(seconds(10), "the healthy receiver served", () -> Hooks.delivered(platform.jdbi(), good.id()) == 30);
            long healthyMillis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(healthyMillis < 6_000, "30 deliveries of 50 ms at 4 at a time took " + healthyMillis + " ms");
            assertTrue(healthy.maxInFlight() <= 4, "at most 4 in flight per receiver: " + healthy.maxInFlight());

            // Let the failing receiver's story play out for a while: timeouts, the breaker opening, probes.
            long remaining = 7_000 - (System.nanoTime() - started) / 1_000_000;
            if (remaining > 0) {
                try {
                    Thread.sleep(remaining);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            await(seconds(5), "every request to the failing receiver recorded",
                    () -> Hooks.attempts(platform.jdbi(), bad.id()) == failing.received().size());
            long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
            int seen = failing.received().size();
            // Without a breaker, 4 in flight with 1 s timeouts would have made about 4 per second for each second.
            long unprotected = 4 * (elapsedMillis / 1000 + 1);
            assertTrue(seen >= 5, "it was tried: " + seen);
            assertTrue(seen <= 5 + 4 + (elapsedMillis / 2000 + 1), "after 5 failures only probes: " + seen
                    + " requests in " + elapsedMillis + " ms (unprotected: ~" + unprotected + ")");
            assertEquals(seen, Hooks.attempts(platform.jdbi(), bad.id()), "deferred deliveries are not attempts");
            Hooks.unsubscribe(platform, key, bad.id());
        }
    }

    @Test
    void aSlowReceiverWithABacklogDoesNotDelayAnother(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("backlog"));
        try (var slow = new WebhookReceiver(); var fast = new WebhookReceiver()) {
            slow.respond(r -> Reply.status(200).after(Duration.ofMillis(300))); // healthy, just slow: no breaker
            fast.respond(r -> Reply.status(200));
            var backlogged = subscribe(platform, key, slow.url("/slow"), "probe.other");
            subscribe(platform, key, fast.url("/fast"), "probe.burst");
            publish(platform, key, 400, "probe.other"); // 4 at a time: half a minute of work, all due now
            await(seconds(10), "the slow receiver busy", () -> slow.received().size() >= 4);
            long started = System.nanoTime();
            publish(platform, key, 20, "probe.burst"); // due later than the whole backlog
            await(seconds(5), "the other receiver served at once", () -> fast.received().size() == 20);
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(slow.received().size() < 400, "the backlog was still there: " + slow.received().size());
            assertTrue(slow.maxInFlight() <= 4, "4 at a time: " + slow.maxInFlight());
            assertTrue(millis < 5_000, millis + " ms");
            Hooks.unsubscribe(platform, key, backlogged.id());
        }
    }

    @Test
    void aDeletedSubscriptionTakesItsHistoryAlong(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("cascade"));
        try (var receiver = new WebhookReceiver()) {
            var sub = subscribe(platform, key, receiver.url("/x"), "probe.burst");
            publish(platform, key, 2, "probe.burst");
            // Both delivered, however many attempts that took: on a loaded machine an answer slower than the
            // request timeout is retried, and an exact attempt count would never be seen.
            await(seconds(10), "delivered", () -> Hooks.delivered(platform.jdbi(), sub.id()) == 2);
            assertTrue(Hooks.attempts(platform.jdbi(), sub.id()) >= 2, "the history to take along");
            assertEquals(204, platform.delete(SUBSCRIPTIONS + "/" + sub.id(), key).status());
            assertEquals(0, Hooks.count(platform.jdbi(), "SELECT count(*) FROM lnp_core.webhook_deliveries WHERE subscription_id = ?", sub.id()));
            assertEquals(0, Hooks.count(platform.jdbi(), "SELECT count(*) FROM lnp_core.webhook_secrets WHERE subscription_id = ?", sub.id()));
        }
    }
}
