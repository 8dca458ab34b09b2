package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestDatabases;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.webhooks.DeliveryQueue;
import dev.lnp.webhooks.Dispatcher;
import dev.lnp.outbound.PlatformOutboundGuard;
import dev.lnp.webhooks.WebhookSettings;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.SqlStatements;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.StatementCustomizer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher's two loops, fan-out and claims, on a dispatcher of the test's own
 * (webhooks.md, "How it works").
 */
@PlatformTest(plugins = "probe", config = {"lnp.webhooks.allowed_networks=127.0.0.0/8", "lnp.webhooks.dispatch=false"})
class WebhookDispatcherLoopsTest {

    @AfterEach
    void forgetSubscriptions(TestPlatform platform) {
        platform.jdbi().useHandle(h -> h.execute("DELETE FROM lnp_core.webhook_subscriptions"));
    }

    /**
     * Deliveries already fanned out go to their receiver while the fan-out is held up. Under a burst of writes a
     * fan-out of a full batch took up to 0.9 s, and when fanning out and claiming took turns in one loop the
     * receivers sat idle that long after every refill. Here the fan-out is held up for good: a transaction keeps the
     * outbox locked against writers (readers may pass).
     */
    @Test
    void deliveriesAlreadyFannedOutAreSentWhileTheFanOutWaits(TestPlatform platform) throws Exception {
        UUID workspace = platform.createWorkspace("slow fan-out");
        String key = platform.fullAccessKey(workspace);
        var settings = WebhookScheduleTest.SETTINGS;
        var queue = new DeliveryQueue(platform.jdbi());
        try (var receiver = new WebhookReceiver()) {
            subscribe(platform, key, receiver.url("/slow"), "probe.burst");
            publish(platform, key, 3, "probe.burst");
            assertEquals(3, queue.fanOut(Instant.now(), 100), "three deliveries wait for a claim");
            publish(platform, key, 2, "probe.burst"); // two events the held-up fan-out cannot take

            Handle lock = platform.jdbi().open();
            try (var dispatcher = new Dispatcher(queue, settings, Clock.systemUTC(),
                    PlatformOutboundGuard.allowing(settings.allowedNetworks()), "slow-fan-out-node")) {
                lock.begin();
                lock.execute("LOCK TABLE lnp_core.outbox IN EXCLUSIVE MODE");
                dispatcher.start();
                WebhookReceiver.await(Duration.ofSeconds(10), "three deliveries",
                        () -> receiver.received().size() >= 3);
                assertEquals(3, receiver.received().size(), "the three fanned out, not the two behind the lock");
                long waiting = platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT count(*) FROM lnp_core.outbox WHERE workspace_id = :ws AND dispatched_at IS NULL
                        """).bind("ws", workspace).mapTo(Long.class).one());
                assertEquals(2, waiting, "the fan-out is still held up");

                lock.rollback();
                WebhookReceiver.await(Duration.ofSeconds(10), "five deliveries",
                        () -> receiver.received().size() >= 5);
                assertEquals(5, receiver.received().size(), "the rest once the fan-out goes on");
            } finally {
                if (lock.isInTransaction()) {
                    lock.rollback();
                }
                lock.close();
            }
        }
    }

    /**
     * A backlog drains on wake-ups alone, with no help from the poll. The claim loop used to be woken when a
     * receiver's local queue fell to exactly half; a claim that ran longer than the receiver took to drain left the
     * queue at half or less, it never passed the mark again, and the loop slept until the poll with deliveries
     * due (133 deliveries/s after a burst in a full bench run). One attempt slot per receiver (a queue of four) and
     * a poll of a minute make each claim's room small and a missed wake-up plain.
     */
    @Test
    void aBacklogDrainsWithoutWaitingForThePoll(TestPlatform platform) throws Exception {
        UUID workspace = platform.createWorkspace("backlog wake-ups");
        String key = platform.fullAccessKey(workspace);
        var settings = oneSlotPerReceiverAndAPollOfAMinute();
        var queue = new DeliveryQueue(platform.jdbi());
        try (var receiver = new WebhookReceiver()) {
            subscribe(platform, key, receiver.url("/backlog"), "probe.burst");
            publish(platform, key, 60, "probe.burst");
            assertEquals(60, queue.fanOut(Instant.now(), 100), "sixty deliveries wait for a claim");
            try (var dispatcher = new Dispatcher(queue, settings, Clock.systemUTC(),
                    PlatformOutboundGuard.allowing(settings.allowedNetworks()), "backlog-node")) {
                dispatcher.start(); // its first claims run at once; after that only wake-ups drive it
                WebhookReceiver.await(Duration.ofSeconds(20), "sixty deliveries",
                        () -> receiver.received().size() >= 60);
            }
            assertEquals(60, receiver.received().size());
        }
    }

    /**
     * Events the dispatcher fans out itself, more than its receiver has room for: the fan-out leases what fits and
     * sends it at once, and wakes the claims for the rest, which a poll of a minute would otherwise leave waiting.
     */
    @Test
    void whatTheFanOutCannotLeaseIsClaimedWithoutWaitingForThePoll(TestPlatform platform) throws Exception {
        UUID workspace = platform.createWorkspace("fan-out overflow");
        String key = platform.fullAccessKey(workspace);
        var settings = oneSlotPerReceiverAndAPollOfAMinute();
        var queue = new DeliveryQueue(platform.jdbi());
        try (var receiver = new WebhookReceiver()) {
            subscribe(platform, key, receiver.url("/overflow"), "probe.burst");
            try (var dispatcher = new Dispatcher(queue, settings, Clock.systemUTC(),
                    PlatformOutboundGuard.allowing(settings.allowedNetworks()), "overflow-node")) {
                dispatcher.start();
                Thread.sleep(200); // both loops have run once and sleep until woken
                publish(platform, key, 40, "probe.burst");
                dispatcher.wake(); // as the commit's notice would
                WebhookReceiver.await(Duration.ofSeconds(20), "forty deliveries",
                        () -> receiver.received().size() >= 40);
            }
            assertEquals(40, receiver.received().size());
            assertEquals(0, Hooks.count(platform.jdbi(), """
                    SELECT count(*) FROM lnp_core.webhook_deliveries WHERE workspace_id = ? AND state <> 'delivered'
                    """, workspace));
        }
    }

    /**
     * A claim that found its receiver's local queue full takes nothing for it. When every held delivery is answered
     * while that claim's statement runs, no answer is left to wake the loop once the claim has recorded that more is
     * due: it must claim again at once, or it sleeps until the poll. Here the claim's statement is held until the
     * receiver has answered the four deliveries the fan-out leased, so the window is open every time.
     */
    @Test
    void aClaimWhoseReceiverDrainedWhileItRanClaimsAgainAtOnce(TestPlatform platform) throws Exception {
        UUID workspace = platform.createWorkspace("drained meanwhile");
        String key = platform.fullAccessKey(workspace);
        var settings = oneSlotPerReceiverAndAPollOfAMinute();
        var server = TestDatabases.server();
        Jdbi slowClaims = Jdbi.create(platform.databaseUrl(), server.user(), server.password());
        var holdNextClaim = new AtomicBoolean();
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> WebhookReceiver.Reply.status(200).after(Duration.ofMillis(100)));
            slowClaims.getConfig(SqlStatements.class).addCustomizer(new StatementCustomizer() {
                @Override
                public void beforeExecution(PreparedStatement statement, StatementContext context) {
                    boolean aClaim = context.getRawSql().contains("WITH RECURSIVE waiting");
                    if (aClaim && holdNextClaim.compareAndSet(true, false)) {
                        WebhookReceiver.await(Duration.ofSeconds(10), "the four leased deliveries",
                                () -> receiver.received().size() >= 4);
                        try {
                            Thread.sleep(400); // the last one's answer (100 ms) is in, and the dispatcher let it go
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            });
            subscribe(platform, key, receiver.url("/drained"), "probe.burst");
            try (var dispatcher = new Dispatcher(new DeliveryQueue(slowClaims), settings, Clock.systemUTC(),
                    PlatformOutboundGuard.allowing(settings.allowedNetworks()), "drained-node")) {
                dispatcher.start();
                Thread.sleep(200); // both loops have run once and sleep until woken
                holdNextClaim.set(true);
                publish(platform, key, 12, "probe.burst");
                dispatcher.eventsCommitted(); // as the commit's notice would: the fan-out leases four, wakes the claims
                WebhookReceiver.await(Duration.ofSeconds(20), "twelve deliveries",
                        () -> receiver.received().size() >= 12);
            }
            assertFalse(holdNextClaim.get(), "the claim after the fan-out was held");
            assertEquals(12, receiver.received().size());
        }
    }

    /** A receiver's local queue of four, and no poll to help within a test's time. */
    private static WebhookSettings oneSlotPerReceiverAndAPollOfAMinute() {
        var base = WebhookScheduleTest.SETTINGS;
        return new WebhookSettings(base.allowedNetworks(), base.requestTimeout(), base.lease(), 8, 1,
                base.breakerFailures(), base.breakerDelay(), Duration.ofMinutes(1), base.batchSize(),
                base.secretOverlap(), base.responseCap(), base.history(), base.disableAfter(), true);
    }
}
