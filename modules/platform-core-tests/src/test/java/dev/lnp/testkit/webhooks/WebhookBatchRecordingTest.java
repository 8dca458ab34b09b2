package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.webhooks.ClaimedDelivery;
import dev.lnp.webhooks.DeliveryQueue;
import dev.lnp.webhooks.Outcome;
import dev.lnp.webhooks.RetrySchedule;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;

/**
 * Attempts are recorded in batches, one statement and one commit for many deliveries
 * ({@code DeliveryQueue.recordAll}). A batch must record
 * every delivery as recording it alone would: its attempt row, its own next state, only while its lease is held,
 * and each subscription's failure streak as if the attempts had been recorded one after the other. A batch the
 * database refuses falls back to recording each attempt on its own ({@link WebhookBatchDispatchTest}). The platform
 * under test does not dispatch: the test fans out, claims and records by hand.
 */
@PlatformTest(plugins = "probe", config = {"lnp.webhooks.allowed_networks=127.0.0.0/8", "lnp.webhooks.dispatch=false"})
class WebhookBatchRecordingTest {

    private static final String NODE = "batch-test-node";

    @Test
    void oneBatchRecordsSuccessesFailuresALostLeaseAndEachStreak(TestPlatform platform) {
        UUID ws = platform.createWorkspace("batch-direct");
        String key = platform.fullAccessKey(ws);
        var queue = new DeliveryQueue(platform.jdbi());
        UUID ok = subscribe(platform, key, "http://127.0.0.1:9/ok", "probe.burst").id();
        UUID down = subscribe(platform, key, "http://127.0.0.1:9/down", "probe.burst").id();
        UUID recovering = subscribe(platform, key, "http://127.0.0.1:9/recovering", "probe.burst").id();
        UUID relapsing = subscribe(platform, key, "http://127.0.0.1:9/relapsing", "probe.burst").id();
        Instant earlier = Instant.now().minus(Duration.ofHours(3)).truncatedTo(ChronoUnit.MILLIS);
        platform.jdbi().useHandle(h -> h.createUpdate(
                        "UPDATE lnp_core.webhook_subscriptions SET failing_since = :t WHERE id = :id")
                .bind("t", earlier).bind("id", down).execute());

        Instant now = Instant.now();
        List<ClaimedDelivery> claimed = claimTwoEach(platform, queue, key, List.of(ok, down, recovering, relapsing), now);
        Map<UUID, List<ClaimedDelivery>> bySubscription = new java.util.HashMap<>();
        claimed.forEach(c -> bySubscription.computeIfAbsent(c.subscriptionId(), s -> new ArrayList<>()).add(c));

        Instant t = now.truncatedTo(ChronoUnit.MILLIS);
        List<DeliveryQueue.Finished> batch = new ArrayList<>();
        // In the order they finished: ok twice delivered; down twice failing; recovering fails then succeeds;
        // relapsing succeeds then fails.
        batch.add(finished(bySubscription.get(ok).get(0), 200, t.plusMillis(1)));
        batch.add(finished(bySubscription.get(down).get(0), 503, t.plusMillis(2)));
        batch.add(finished(bySubscription.get(recovering).get(0), 500, t.plusMillis(3)));
        batch.add(finished(bySubscription.get(relapsing).get(0), 200, t.plusMillis(4)));
        batch.add(finished(bySubscription.get(ok).get(1), 204, t.plusMillis(5)));
        batch.add(finished(bySubscription.get(down).get(1), 410, t.plusMillis(6)));
        batch.add(finished(bySubscription.get(recovering).get(1), 200, t.plusMillis(7)));
        batch.add(finished(bySubscription.get(relapsing).get(1), 502, t.plusMillis(8)));
        // Another node took this one over (its lease ran out): its attempt is kept, its state is not ours to set.
        ClaimedDelivery lost = bySubscription.get(ok).get(1);
        platform.jdbi().useHandle(h -> h.createUpdate(
                        "UPDATE lnp_core.webhook_deliveries SET lease_token = gen_random_uuid() WHERE id = :id")
                .bind("id", lost.id()).execute());

        Set<UUID> held = queue.recordAll(batch, now, Duration.ofDays(5));

        assertEquals(7, held.size(), "every lease but the lost one was held: " + held);
        assertTrue(!held.contains(lost.id()));
        for (DeliveryQueue.Finished f : batch) {
            UUID id = f.delivery().id();
            var row = platform.jdbi().withHandle(h -> h.createQuery("""
                            SELECT state, attempts, last_status, next_attempt_at, lease_token, completed_at,
                                   (SELECT count(*) FROM lnp_core.webhook_attempts a WHERE a.delivery_id = d.id) AS rows,
                                   (SELECT max(a.status_code) FROM lnp_core.webhook_attempts a WHERE a.delivery_id = d.id)
                                       AS attempt_status
                              FROM lnp_core.webhook_deliveries d WHERE id = :id
                            """).bind("id", id).mapToMap().one());
            int status = f.attempt().outcome().statusCode();
            assertEquals(1L, row.get("rows"), "one attempt row for " + id);
            assertEquals(status, row.get("attempt_status"));
            if (id.equals(lost.id())) {
                assertEquals("pending", row.get("state"), "a lost lease leaves the state to its new holder");
                assertEquals(0, row.get("attempts"));
                assertNotNull(row.get("lease_token"));
                continue;
            }
            assertEquals(f.attempt().decision().state(), row.get("state"), "state of " + status);
            assertEquals(1, row.get("attempts"));
            assertEquals(status, row.get("last_status"));
            assertNull(row.get("lease_token"), "lease given back");
            assertEquals(f.attempt().decision().isFinal(), row.get("completed_at") != null);
            assertEquals(f.attempt().decision().isFinal(), row.get("next_attempt_at") == null);
        }
        assertNull(failingSince(platform, ok), "only successes: no streak");
        assertEquals(earlier, failingSince(platform, down), "a running streak keeps its start");
        assertNull(failingSince(platform, recovering), "the last attempt succeeded: the streak ended");
        assertEquals(t.plusMillis(8).minusMillis(100), failingSince(platform, relapsing),
                "the streak starts at the failure after the last success");
    }

    /**
     * A delete of a subscription locks it, then deletes its deliveries; a batch being recorded meanwhile must wait
     * for the subscription before it locks any of those deliveries, or the two deadlock and PostgreSQL aborts one
     * (the delete answered 500 when it was the one). The test holds the delete's first lock by hand, lets the
     * recording start and block, then deletes: the delete goes through and the recording finds nothing left.
     */
    @Test
    void aBatchWaitsForASubscriptionBeingDeletedBeforeLockingItsDeliveries(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("batch-delete");
        String key = platform.fullAccessKey(ws);
        var queue = new DeliveryQueue(platform.jdbi());
        UUID failing = subscribe(platform, key, "http://127.0.0.1:9/failing", "probe.burst").id();
        UUID other = subscribe(platform, key, "http://127.0.0.1:9/other", "probe.burst").id();
        Instant now = Instant.now();
        List<ClaimedDelivery> claimed = claimTwoEach(platform, queue, key, List.of(failing, other), now);
        Instant t = now.truncatedTo(ChronoUnit.MILLIS);
        List<DeliveryQueue.Finished> batch = new ArrayList<>();
        for (ClaimedDelivery c : claimed) {
            batch.add(finished(c, 503, t.plusMillis(batch.size() + 1)));
        }

        try (Handle deleter = platform.jdbi().open();
                ExecutorService recorder = Executors.newSingleThreadExecutor()) {
            deleter.begin();
            int deleterPid = deleter.createQuery("SELECT pg_backend_pid()").mapTo(Integer.class).one();
            deleter.createQuery("SELECT id FROM lnp_core.webhook_subscriptions WHERE id = :id FOR UPDATE")
                    .bind("id", failing).mapTo(UUID.class).one();
            Future<Set<UUID>> recording = recorder.submit(() -> queue.recordAll(batch, now, Duration.ofDays(5)));
            awaitBlockedBy(platform, deleterPid, recording);

            int deleted = deleter.createUpdate("DELETE FROM lnp_core.webhook_subscriptions WHERE id = :id")
                    .bind("id", failing).execute();
            deleter.commit();

            assertEquals(1, deleted);
            Set<UUID> held = recording.get(30, TimeUnit.SECONDS);
            Set<UUID> others = new java.util.HashSet<>();
            claimed.stream().filter(c -> c.subscriptionId().equals(other)).forEach(c -> others.add(c.id()));
            assertEquals(others, held, "the deleted subscription's deliveries went with it; the other's are recorded");
        }
        assertNotNull(failingSince(platform, other), "the other subscription's streak is recorded");
    }

    /** Waits until the recording's session waits for a lock the deleter's session holds. */
    private static void awaitBlockedBy(TestPlatform platform, int pid, Future<?> recording) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            assertTrue(!recording.isDone(), "the recording did not wait for the subscription being deleted");
            boolean blocked = platform.jdbi().withHandle(h -> h.createQuery(
                            "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE :pid = ANY (pg_blocking_pids(pid)))")
                    .bind("pid", pid).mapTo(Boolean.class).one());
            if (blocked) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the recording never waited for the deleter's lock");
    }

    /** Two events fanned out to every subscription of the workspace, and their deliveries leased to this test. */
    private static List<ClaimedDelivery> claimTwoEach(TestPlatform platform, DeliveryQueue queue, String key,
            List<UUID> subscriptions, Instant now) {
        publish(platform, key, 2, "probe.burst");
        queue.fanOut(now, 1_000);
        List<ClaimedDelivery> claimed = new ArrayList<>(
                queue.claim(now, 1_000, 100, Map.of(), Set.of(), NODE, now.plus(Duration.ofMinutes(5))));
        claimed.removeIf(c -> !subscriptions.contains(c.subscriptionId()));
        assertEquals(2 * subscriptions.size(), claimed.size(), "two deliveries per subscription claimed");
        return claimed;
    }

    private static DeliveryQueue.Finished finished(ClaimedDelivery delivery, int status, Instant finishedAt) {
        Outcome outcome = Outcome.ofResponse(status, "", false, Optional.empty());
        RetrySchedule.Decision decision = new RetrySchedule(java.util.random.RandomGenerator.getDefault())
                .decide(outcome, 1, delivery.roundStartedAt(), finishedAt, Optional.empty());
        Instant startedAt = finishedAt.minusMillis(100);
        return new DeliveryQueue.Finished(delivery, new DeliveryQueue.Attempt(NODE, startedAt,
                Duration.ofMillis(100), outcome, decision));
    }

    private static Instant failingSince(TestPlatform platform, UUID subscription) {
        OffsetDateTime t = platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT failing_since FROM lnp_core.webhook_subscriptions WHERE id = :id")
                .bind("id", subscription).mapTo(OffsetDateTime.class).one());
        return t == null ? null : t.toInstant();
    }
}
