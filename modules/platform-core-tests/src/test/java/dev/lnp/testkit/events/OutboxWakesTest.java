package dev.lnp.testkit.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.internal.events.OutboxWakeSignal;
import dev.lnp.database.OutboxWakes;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The dispatchers are woken after commits by at most one NOTIFY per interval per node, not one per writing
 * transaction (a NOTIFY holds a cluster-wide lock through its transaction's commit flush).
 */
@PlatformTest(config = "lnp.webhooks.dispatch=false")
class OutboxWakesTest {

    /** The notifications on the dispatchers' channel seen by a listening connection of its own within {@code millis}. */
    private static List<PGNotification> heard(Connection listening, long millis) throws Exception {
        List<PGNotification> heard = new ArrayList<>();
        long until = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < until) {
            PGNotification[] some = listening.unwrap(PGConnection.class).getNotifications(100);
            if (some != null) {
                for (PGNotification n : some) {
                    if (n.getName().equals(OutboxWakeSignal.CHANNEL)) {
                        heard.add(n);
                    }
                }
            }
        }
        return heard;
    }

    @Test
    void aBurstOfCommitsSendsOneNotificationPerIntervalAndALaterCommitAnother(TestPlatform platform) throws Exception {
        try (var handle = platform.jdbi().open()) {
            Connection listening = handle.getConnection();
            listening.createStatement().execute("LISTEN " + OutboxWakeSignal.CHANNEL);
            var wakes = new OutboxWakes(platform.jdbi(), 500);
            for (int i = 0; i < 200; i++) {
                wakes.committed();
            }
            int burst = heard(listening, 1_500).size();
            assertTrue(burst >= 1 && burst <= 2, "200 commits within one interval woke " + burst + " times");

            wakes.committed();
            assertEquals(1, heard(listening, 1_500).size(), "a commit after the interval wakes again");
        }
    }

    @Test
    void anUnreachableDatabaseCostsTheCallerNothingAndNoneWakesNobody(TestPlatform platform) throws Exception {
        var nowhere = new OutboxWakes(Jdbi.create("jdbc:postgresql://127.0.0.1:1/nowhere?connectTimeout=1"), 10);
        long started = System.nanoTime();
        nowhere.committed();
        nowhere.committed();
        assertTrue(System.nanoTime() - started < 500_000_000L, "the commit does not wait for the notification");

        try (var handle = platform.jdbi().open()) {
            Connection listening = handle.getConnection();
            listening.createStatement().execute("LISTEN " + OutboxWakeSignal.CHANNEL);
            OutboxWakes.none().committed();
            assertEquals(0, heard(listening, 300).size(), "none() wakes nobody");
        }
    }
}
