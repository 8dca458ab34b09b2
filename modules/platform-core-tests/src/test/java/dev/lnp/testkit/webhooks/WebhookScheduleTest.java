package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.webhooks.Hooks.SUBSCRIPTIONS;
import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.webhooks.signature.WebhookSignature;
import dev.lnp.webhooks.DeliveryQueue;
import dev.lnp.webhooks.Dispatcher;
import dev.lnp.outbound.PlatformOutboundGuard;
import dev.lnp.webhooks.RetrySchedule;
import dev.lnp.webhooks.WebhookSettings;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.testkit.WebhookReceiver.Reply;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The schedule, the auto-disable and the purge, driven by a clock the test moves. The platform under test does
 * not dispatch; each test runs a dispatcher of its own, one pass at a time, on the platform's database.
 */
@PlatformTest(plugins = "probe", config = {"lnp.webhooks.allowed_networks=127.0.0.0/8", "lnp.webhooks.dispatch=false"})
class WebhookScheduleTest {

    /** A clock the test sets. */
    static final class MovableClock extends Clock {
        private final AtomicReference<Instant> now;

        MovableClock(Instant start) {
            this.now = new AtomicReference<>(start);
        }

        void set(Instant instant) {
            now.set(instant);
        }

        void advance(Duration duration) {
            now.updateAndGet(i -> i.plus(duration));
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    static final WebhookSettings SETTINGS = new WebhookSettings(List.of("127.0.0.0/8"),
            Duration.ofSeconds(2), Duration.ofSeconds(10), 8, 4,
            1000, // no circuit breaking here: the schedule alone is under test
            Duration.ofSeconds(1), Duration.ofMillis(100), 100, Duration.ofHours(1), 64 * 1024,
            Duration.ofDays(30), Duration.ofDays(5), true);

    private Dispatcher dispatcher(TestPlatform platform, Clock clock) {
        return new Dispatcher(new DeliveryQueue(platform.jdbi(), platform.platform().mail().mailer()), SETTINGS, clock,
                PlatformOutboundGuard.allowing(SETTINGS.allowedNetworks()), "test-node");
    }

    @AfterEach
    void forgetSubscriptions(TestPlatform platform) {
        platform.jdbi().useHandle(h -> h.execute("DELETE FROM lnp_core.webhook_subscriptions"));
    }

    private static Instant nextAttempt(TestPlatform platform, UUID subscription) {
        return platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT next_attempt_at FROM lnp_core.webhook_deliveries WHERE subscription_id = :s
                        """).bind("s", subscription).mapTo(OffsetDateTime.class).one()).toInstant();
    }

    @Test
    void aFailingDeliveryIsAttemptedTenTimesOnTheScheduleThenFails(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("schedule"));
        var clock = new MovableClock(Instant.now());
        try (var receiver = new WebhookReceiver(); var dispatcher = dispatcher(platform, clock)) {
            receiver.respond(r -> Reply.status(503));
            var sub = subscribe(platform, key, receiver.url("/down"), "probe.burst");
            publish(platform, key, 1, "probe.burst");
            Instant start = clock.instant();
            dispatcher.runOnce();
            assertEquals(1, receiver.received().size(), "the first attempt goes out at once");
            Instant previous = start;
            for (int attempt = 2; attempt <= RetrySchedule.MAX_ATTEMPTS; attempt++) {
                Instant due = nextAttempt(platform, sub.id());
                long wait = Duration.between(previous, due).toMillis();
                long nominal = RetrySchedule.WAITS.get(attempt - 2).toMillis();
                assertTrue(wait >= nominal * 0.9 - 1_000 && wait <= nominal * 1.1 + 1_000,
                        "wait before attempt " + attempt + ": " + wait + " ms, nominal " + nominal);

                clock.set(due.minusMillis(1));
                dispatcher.runOnce();
                assertEquals(attempt - 1, receiver.received().size(), "not a moment early (attempt " + attempt + ")");
                clock.set(due);
                dispatcher.runOnce();
                assertEquals(attempt, receiver.received().size(), "on time (attempt " + attempt + ")");
                var request = receiver.received().get(attempt - 1);
                assertEquals(Long.toString(due.getEpochSecond()), request.timestamp(), "signed at the attempt's time");
                WebhookSignature.verify(sub.secret(), request.timestamp(), request.signature(), request.body(), due);
                assertEquals(Integer.toString(attempt), request.attempt());
                previous = due;
            }
            assertTrue(previous.isBefore(start.plus(Duration.ofHours(24))), "ten attempts within 24 h: " + previous);
            assertEquals("failed", Hooks.states(platform.jdbi(), sub.id()).values().iterator().next());
            assertEquals(1, receiver.received().stream().map(WebhookReceiver.Received::deliveryId).distinct().count(),
                    "one delivery id across all ten attempts");
            clock.advance(Duration.ofDays(2));
            dispatcher.runOnce();
            assertEquals(RetrySchedule.MAX_ATTEMPTS, receiver.received().size(), "nothing after the last attempt");
            String error = platform.get(SUBSCRIPTIONS + "/" + sub.id() + "/deliveries", key).data().get(0)
                    .path("last_error").asText();
            assertTrue(error.contains("all 10 attempts failed"), error);
        }
    }

    @Test
    void retryAfterPushesTheNextAttemptBack(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("retry-after"));
        var clock = new MovableClock(Instant.now());
        try (var receiver = new WebhookReceiver(); var dispatcher = dispatcher(platform, clock)) {
            AtomicInteger calls = new AtomicInteger();
            receiver.respond(r -> calls.incrementAndGet() == 1
                    ? Reply.status(429).withHeader("Retry-After", "3600") : Reply.status(200));
            var sub = subscribe(platform, key, receiver.url("/busy"), "probe.burst");
            publish(platform, key, 1, "probe.burst");
            Instant start = clock.instant();
            dispatcher.runOnce();
            assertEquals(start.plusSeconds(3600).getEpochSecond(), nextAttempt(platform, sub.id()).getEpochSecond());
            clock.advance(Duration.ofMinutes(59));
            dispatcher.runOnce();
            assertEquals(1, receiver.received().size(), "the schedule's 5 s would have been too soon");
            clock.advance(Duration.ofMinutes(1));
            dispatcher.runOnce();
            assertEquals(2, receiver.received().size());
            assertEquals("delivered", Hooks.states(platform.jdbi(), sub.id()).values().iterator().next());
        }
    }

    @Test
    void aSubscriptionFailingForFiveDaysIsSwitchedOffAndTheOwnerIsTold(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("failing");
        String key = platform.fullAccessKey(ws);
        var clock = new MovableClock(Instant.now());
        try (var receiver = new WebhookReceiver(); var dispatcher = dispatcher(platform, clock)) {
            receiver.respond(r -> Reply.status(500));
            var sub = subscribe(platform, key, receiver.url("/broken"), "probe.burst");
            Instant firstFailure = clock.instant();
            publish(platform, key, 1, "probe.burst");
            dispatcher.runOnce();
            assertEquals(firstFailure.getEpochSecond(), failingSince(platform, sub.id()).getEpochSecond());

            clock.advance(Duration.ofDays(4));
            publish(platform, key, 1, "probe.burst");
            dispatcher.runOnce();
            var still = platform.get(SUBSCRIPTIONS + "/" + sub.id(), key).data();
            assertTrue(still.path("enabled").asBoolean(), "four days of failures are not enough");

            clock.set(firstFailure.plus(Duration.ofDays(5)).plusSeconds(1));
            dispatcher.runOnce();
            var off = platform.get(SUBSCRIPTIONS + "/" + sub.id(), key).data();
            assertFalse(off.path("enabled").asBoolean(), off.toString());
            assertEquals("failing", off.path("disabled_reason").asText());

            var notices = platform.get("/api/v1/webhooks/notices", key);
            assertEquals(200, notices.status(), notices.body());
            assertEquals(1, notices.data().size(), notices.body());
            var notice = notices.data().get(0);
            assertEquals("webhook_subscription_disabled", notice.path("kind").asText());
            assertEquals(sub.id().toString(), notice.path("subject_id").asText());
            String owner = platform.workspaces().find(ws).orElseThrow().ownerEmail();
            assertEquals(owner, notice.path("recipient").asText(), "addressed to the workspace owner");
            assertTrue(notice.path("message").asText().contains(receiver.url("/broken")), notice.toString());
            var mailed = platform.platform().mail().mailbox().list(new dev.lnp.api.internal.mail.Mailbox.Query(owner, ws, 10));
            assertEquals(1, mailed.size(), "the owner is e-mailed once");
            assertFalse(notice.path("emailed_at").isNull(), notice.toString());
            assertEquals("webhook-subscription-disabled", mailed.get(0).kind());
            assertEquals(notice.path("message").asText(),
                    platform.platform().mail().mailbox().show(mailed.get(0).id()).orElseThrow().text());

            int before = receiver.received().size();
            clock.advance(Duration.ofHours(12));
            publish(platform, key, 1, "probe.burst");
            dispatcher.runOnce();
            assertEquals(before, receiver.received().size(), "a switched-off subscription is left alone");

            var on = platform.patch(SUBSCRIPTIONS + "/" + sub.id(), key, "{\"enabled\": true}").data();
            assertTrue(on.path("enabled").asBoolean());
            assertTrue(on.path("disabled_reason").isNull());
            assertTrue(on.path("failing_since").isNull(), "switching it on starts a new streak");
        }
    }

    @Test
    void oneSuccessEndsTheFailureStreak(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("streak"));
        var clock = new MovableClock(Instant.now());
        try (var receiver = new WebhookReceiver(); var dispatcher = dispatcher(platform, clock)) {
            AtomicInteger calls = new AtomicInteger();
            receiver.respond(r -> Reply.status(calls.incrementAndGet() == 1 ? 500 : 200));
            var sub = subscribe(platform, key, receiver.url("/flaky"), "probe.burst");
            publish(platform, key, 1, "probe.burst");
            dispatcher.runOnce();
            assertTrue(failingSince(platform, sub.id()) != null);
            clock.advance(Duration.ofDays(3));
            publish(platform, key, 1, "probe.burst");
            dispatcher.runOnce(); // the retry and the new delivery both succeed
            assertNull(failingSince(platform, sub.id()), "a delivered attempt clears the streak");
        }
    }

    @Test
    void historyOlderThanThirtyDaysIsPurged(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("purge"));
        var clock = new MovableClock(Instant.now().minus(Duration.ofDays(31)));
        try (var receiver = new WebhookReceiver(); var recent = new WebhookReceiver();
                var dispatcher = dispatcher(platform, clock)) {
            var sub = subscribe(platform, key, receiver.url("/old"), "probe.burst");
            publish(platform, key, 2, "probe.burst");
            dispatcher.runOnce(); // delivered 31 days ago
            receiver.respond(r -> Reply.status(503));
            clock.advance(Duration.ofSeconds(1));
            publish(platform, key, 1, "probe.burst");
            dispatcher.runOnce(); // 31 days old and still pending: kept until it finishes
            platform.patch(SUBSCRIPTIONS + "/" + sub.id(), key, "{\"enabled\": false}");
            assertEquals(3, Hooks.states(platform.jdbi(), sub.id()).size());

            clock.set(Instant.now());
            var other = subscribe(platform, key, recent.url("/recent"), "probe.burst");
            publish(platform, key, 1, "probe.burst");
            dispatcher.runOnce(); // a recent delivery
            assertEquals(1, recent.received().size());

            // The platform's maintenance runs the same purge every minute and may get there first: what is
            // checked is what is left, not how many rows this call removed.
            platform.platform().subsystem(dev.lnp.webhooks.subsystem.WebhooksSubsystem.class).orElseThrow().purgeHistory();
            var left = Hooks.states(platform.jdbi(), sub.id());
            assertEquals(List.of("pending"), List.copyOf(left.values()), left.toString());
            assertEquals(1, Hooks.attempts(platform.jdbi(), sub.id()), "the old attempts went with their deliveries");
            assertEquals(1, Hooks.states(platform.jdbi(), other.id()).size(), "recent history stays");
            assertEquals(0, Hooks.count(platform.jdbi(), "SELECT count(*) FROM lnp_core.outbox o "
                    + "WHERE dispatched_at < now() - interval '30 days' "
                    + "AND NOT EXISTS (SELECT 1 FROM lnp_core.webhook_deliveries d WHERE d.event_id = o.id)"));
        }
    }

    private static Instant failingSince(TestPlatform platform, UUID subscription) {
        OffsetDateTime since = platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT failing_since FROM lnp_core.webhook_subscriptions WHERE id = :id")
                .bind("id", subscription).mapTo(OffsetDateTime.class).one());
        return since == null ? null : since.toInstant();
    }
}
