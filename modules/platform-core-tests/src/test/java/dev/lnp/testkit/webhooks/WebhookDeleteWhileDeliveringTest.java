package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.seconds;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.testkit.WebhookReceiver.Reply;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * Deleting a subscription while the dispatcher records attempts of its deliveries and moves its failure streak:
 * the delete and the recording lock the same subscription and delivery rows, and neither may lose to the other.
 * The attempts in flight when it goes find their delivery gone, which is no lost lease: nothing is warned about.
 */
@PlatformTest(plugins = "probe", config = {
        "lnp.webhooks.allowed_networks=127.0.0.0/8",
        "lnp.webhooks.request_timeout_ms=1000",
        "lnp.webhooks.per_receiver=16",
        "lnp.webhooks.breaker_failures=1000",
        "lnp.webhooks.poll_interval_ms=50"})
class WebhookDeleteWhileDeliveringTest {

    /** Held here: the logging framework keeps its loggers only weakly. */
    private static final Logger DISPATCHER_LOG = Logger.getLogger("dev.lnp.webhooks.Dispatcher");

    @RepeatedTest(3)
    void aSubscriptionIsDeletedWhileItsFailingDeliveriesAreRecorded(TestPlatform platform, RepetitionInfo repetition) {
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Level level = DISPATCHER_LOG.getLevel();
        DISPATCHER_LOG.setLevel(Level.ALL);
        DISPATCHER_LOG.addHandler(handler);
        String key = platform.fullAccessKey(platform.createWorkspace("delete-busy-" + repetition.getCurrentRepetition()));
        try (var failing = new WebhookReceiver()) {
            failing.respond(r -> Reply.status(500));
            var sub = subscribe(platform, key, failing.url("/down"), "probe.burst");
            publish(platform, key, 300, "probe.burst");
            await(seconds(10), "attempts being recorded", () -> Hooks.attempts(platform.jdbi(), sub.id()) >= 20);
            Hooks.unsubscribe(platform, key, sub.id());
            assertEquals(0, Hooks.count(platform.jdbi(),
                    "SELECT count(*) FROM lnp_core.webhook_deliveries WHERE subscription_id = ?", sub.id()));
            await(seconds(10), "an attempt that finished after the delete",
                    () -> logged.stream().anyMatch(r -> String.valueOf(r.getMessage()).contains("deleted with its subscription")));
            assertEquals(List.of(), logged.stream().filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                    .map(LogRecord::getMessage).toList(), "a deleted delivery is no lost lease");
        } finally {
            DISPATCHER_LOG.removeHandler(handler);
            DISPATCHER_LOG.setLevel(level);
        }
    }
}
