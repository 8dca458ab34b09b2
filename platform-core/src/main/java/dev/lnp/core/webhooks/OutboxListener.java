package dev.lnp.core.webhooks;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Wakes the dispatcher when events commit: {@code LISTEN} on a connection of its own (outside the pool, as it
 * is held for good), fed by the outbox trigger's {@code NOTIFY}, which PostgreSQL sends at commit. When the
 * connection breaks (e.g. the database restarts) it reconnects and wakes the dispatcher once, for whatever
 * committed meanwhile; the dispatcher's own polling covers the gap.
 */
final class OutboxListener implements AutoCloseable {

    /** Opens a fresh connection to the platform's database. */
    @FunctionalInterface
    interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private static final System.Logger LOG = System.getLogger(OutboxListener.class.getName());

    private final ConnectionSource connections;
    private final Dispatcher dispatcher;
    private volatile boolean running = true;
    private volatile Connection current;
    private final Thread thread;

    OutboxListener(ConnectionSource connections, Dispatcher dispatcher) {
        this.connections = connections;
        this.dispatcher = dispatcher;
        this.thread = Thread.ofVirtual().name("lnp-webhook-listener").start(this::run);
    }

    private void run() {
        long backoffMillis = 200;
        boolean failing = false;
        while (running) {
            try (Connection connection = connections.open()) {
                current = connection;
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + Dispatcher.CHANNEL);
                }
                PGConnection pg = connection.unwrap(PGConnection.class);
                if (failing) {
                    LOG.log(Level.INFO, "Webhook listener reconnected");
                    failing = false;
                }
                backoffMillis = 200;
                dispatcher.wake();
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(1_000);
                    if (notifications != null && notifications.length > 0) {
                        dispatcher.wake();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return;
                }
                if (!failing) {
                    LOG.log(Level.WARNING, "Webhook listener lost its connection (will reconnect; polling "
                            + "continues): " + e.getMessage());
                    failing = true;
                }
                try {
                    Thread.sleep(backoffMillis);
                } catch (InterruptedException interrupted) {
                    return;
                }
                backoffMillis = Math.min(backoffMillis * 2, 5_000);
            } finally {
                current = null;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        Connection connection = current;
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.log(Level.DEBUG, "closing the listener connection", e);
            }
        }
        thread.interrupt();
        try {
            thread.join(3_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
