package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.seconds;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.testkit.WebhookReceiver.Reply;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;

/**
 * The running dispatcher records attempts in batches ({@link WebhookBatchRecordingTest} for what one batch writes):
 * a burst to a healthy and a failing receiver records every attempt of both, and a batch the database refuses is
 * recorded one attempt at a time instead, nothing lost and nothing sent twice.
 */
@PlatformTest(plugins = "probe", config = {
        "lnp.webhooks.allowed_networks=127.0.0.0/8",
        "lnp.webhooks.breaker_failures=1000",
        "lnp.webhooks.poll_interval_ms=200"})
class WebhookBatchDispatchTest {

    @Test
    void aFailingReceiverAndAHealthyOneInTheSameBurstAreBothRecorded(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("batch-mixed");
        String key = platform.fullAccessKey(ws);
        try (var healthy = new WebhookReceiver(); var failing = new WebhookReceiver()) {
            healthy.respond(r -> Reply.status(200));
            failing.respond(r -> Reply.status(500));
            var good = subscribe(platform, key, healthy.url("/ok"), "probe.burst");
            var bad = subscribe(platform, key, failing.url("/down"), "probe.burst");
            publish(platform, key, 40, "probe.burst");

            await(seconds(30), "every delivery attempted once to each receiver", () ->
                    recorded(platform, good.id()) == 40 && recorded(platform, bad.id()) >= 40);
            assertEquals(40, healthy.received().size());
            assertTrue(Hooks.states(platform.jdbi(), good.id()).values().stream().allMatch("delivered"::equals));
            // Every failed delivery is pending again with its attempts counted and each attempt in the history.
            long consistent = Hooks.count(platform.jdbi(), """
                    SELECT count(*) FROM lnp_core.webhook_deliveries d
                     WHERE d.subscription_id = ? AND d.state = 'pending' AND d.attempts >= 1 AND d.last_status = 500
                       AND d.attempts = (SELECT count(*) FROM lnp_core.webhook_attempts a WHERE a.delivery_id = d.id)
                    """, bad.id());
            assertEquals(40, consistent);
            assertNull(failingSince(platform, good.id()));
            assertNotNull(failingSince(platform, bad.id()), "the failing receiver's streak started");
        }
    }

    @Test
    void aBatchTheDatabaseRefusesIsRecordedOneAttemptAtATime(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("batch-refused");
        String key = platform.fullAccessKey(ws);
        // A trigger that refuses any statement recording more than one attempt: every batch fails, every single
        // recording passes. The sequence counts the refusals (sequences are not rolled back).
        platform.jdbi().useHandle(h -> h.execute("""
                CREATE SEQUENCE lnp_core.test_refused_batches;
                CREATE FUNCTION lnp_core.test_refuse_batches() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF (SELECT count(*) FROM recorded) > 1 THEN
                        PERFORM nextval('lnp_core.test_refused_batches');
                        RAISE EXCEPTION 'test: batches refused';
                    END IF;
                    RETURN NULL;
                END $$;
                CREATE TRIGGER test_refuse_batches AFTER INSERT ON lnp_core.webhook_attempts
                    REFERENCING NEW TABLE AS recorded FOR EACH STATEMENT EXECUTE FUNCTION lnp_core.test_refuse_batches();
                """));
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(200));
            var sub = subscribe(platform, key, receiver.url("/hook"), "probe.burst");
            // While recording waits for this lock, the other attempts finish and queue up behind it: the next batch
            // holds several, and the trigger refuses it.
            try (Handle lock = Hooks.recordingBlocked(platform.jdbi())) {
                publish(platform, key, 10, "probe.burst");
                await(seconds(15), "ten requests answered", () -> receiver.received().size() == 10);
                await(seconds(15), "recording waits for the lock", () -> Hooks.count(platform.jdbi(), """
                        SELECT count(*) FROM pg_stat_activity
                         WHERE datname = current_database() AND wait_event_type = 'Lock'
                           AND query LIKE '%INSERT INTO lnp_core.webhook_attempts%'
                        """) > 0);
                Thread.sleep(500); // the last answers' threads hand their attempts to the recorder
                lock.rollback();
            }

            await(seconds(30), "all ten delivered", () -> Hooks.delivered(platform.jdbi(), sub.id()) == 10);
            assertEquals(10, Hooks.attempts(platform.jdbi(), sub.id()), "each attempt recorded once");
            assertEquals(10, receiver.received().size(), "nothing sent twice");
            assertTrue(Hooks.count(platform.jdbi(), "SELECT CASE WHEN is_called THEN last_value ELSE 0 END"
                            + " FROM lnp_core.test_refused_batches") >= 1,
                    "at least one batch was refused, and its attempts were recorded on their own");
        } finally {
            platform.jdbi().useHandle(h -> h.execute("""
                    DROP TRIGGER test_refuse_batches ON lnp_core.webhook_attempts;
                    DROP FUNCTION lnp_core.test_refuse_batches();
                    DROP SEQUENCE lnp_core.test_refused_batches;
                    """));
        }
    }

    private static long recorded(TestPlatform platform, UUID subscription) {
        return Hooks.count(platform.jdbi(), """
                SELECT count(*) FROM lnp_core.webhook_deliveries WHERE subscription_id = ? AND attempts >= 1
                """, subscription);
    }

    private static Object failingSince(TestPlatform platform, UUID subscription) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT failing_since FROM lnp_core.webhook_subscriptions WHERE id = :id")
                .bind("id", subscription).mapTo(OffsetDateTime.class).one());
    }
}
