package dev.lnp.database;

import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.internal.events.Notifications;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * {@link Notifications} on one connection of its own per node (outside the pool: it is held for good). New channels
 * are listened to on the next turn of the loop (within 250 ms); after the connection breaks it reconnects with a
 * growing pause, listens again to every channel and calls every listener once with {@code null}.
 */
public final class PgNotifications implements Notifications, AutoCloseable {

    /** Opens a fresh connection to the platform's database. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private static final System.Logger LOG = System.getLogger(PgNotifications.class.getName());
    private static final java.util.regex.Pattern CHANNEL = java.util.regex.Pattern.compile("[a-z][a-z0-9_]{0,62}");

    private final ConnectionSource connections;
    private final Map<String, Set<Consumer<String>>> listeners = new ConcurrentHashMap<>();
    private final Set<String> listening = ConcurrentHashMap.newKeySet();
    private volatile boolean running = true;
    private volatile Connection current;
    private Thread thread;

    public PgNotifications(ConnectionSource connections) {
        this.connections = connections;
    }

    private synchronized void ensureStarted() {
        if (thread == null && running) {
            thread = Thread.ofVirtual().name("lnp-notifications").start(this::run);
        }
    }

    @Override
    public Listening listen(String channel, Consumer<String> listener) {
        check(channel);
        listeners.computeIfAbsent(channel, c -> new CopyOnWriteArraySet<>()).add(listener);
        ensureStarted();
        return () -> {
            Set<Consumer<String>> set = listeners.get(channel);
            if (set != null) {
                set.remove(listener);
            }
        };
    }

    @Override
    public void notify(WorkspaceTx tx, String channel, String payload) {
        check(channel);
        if (payload != null && payload.length() > 7_000) {
            throw new IllegalArgumentException("a notification's payload is at most 7,000 characters");
        }
        tx.handle().createQuery("SELECT pg_notify(:channel, :payload)").bind("channel", channel)
                .bind("payload", payload == null ? "" : payload).mapTo(String.class).list();
    }

    private static void check(String channel) {
        if (channel == null || !CHANNEL.matcher(channel).matches()) {
            throw new IllegalArgumentException("a notification channel is lowercase letters, digits and _, not "
                    + channel);
        }
    }

    private void run() {
        long backoff = 200;
        boolean failing = false;
        boolean reconnected = false;
        while (running) {
            try (Connection connection = connections.open()) {
                current = connection;
                listening.clear();
                PGConnection pg = connection.unwrap(PGConnection.class);
                if (failing) {
                    LOG.log(Level.INFO, "Notification listener reconnected");
                    failing = false;
                }
                backoff = 200;
                while (running) {
                    for (String channel : listeners.keySet()) {
                        if (listening.add(channel)) {
                            try (Statement s = connection.createStatement()) {
                                s.execute("LISTEN " + channel);
                            }
                        }
                    }
                    if (reconnected) {
                        reconnected = false;
                        listeners.forEach((channel, set) -> set.forEach(l -> call(l, null)));
                    }
                    PGNotification[] notifications = pg.getNotifications(250);
                    if (notifications != null) {
                        for (PGNotification n : notifications) {
                            Set<Consumer<String>> set = listeners.get(n.getName());
                            if (set != null) {
                                set.forEach(l -> call(l, n.getParameter()));
                            }
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return;
                }
                if (!failing) {
                    LOG.log(Level.WARNING, "Notification listener lost its connection (will reconnect): "
                            + e.getMessage());
                    failing = true;
                }
                reconnected = true;
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException interrupted) {
                    return;
                }
                backoff = Math.min(backoff * 2, 5_000);
            } finally {
                current = null;
            }
        }
    }

    private static void call(Consumer<String> listener, String payload) {
        Thread.ofVirtual().start(() -> {
            try {
                listener.accept(payload);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a notification listener failed: " + e);
            }
        });
    }

    @Override
    public void close() {
        running = false;
        Connection connection = current;
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.log(Level.DEBUG, "closing the notification connection", e);
            }
        }
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(3_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
