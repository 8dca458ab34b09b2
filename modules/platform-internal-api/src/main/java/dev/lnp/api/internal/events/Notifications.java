package dev.lnp.api.internal.events;

import dev.lnp.api.workspace.WorkspaceTx;
import java.util.function.Consumer;

/**
 * PostgreSQL {@code LISTEN}/{@code NOTIFY} for plugins, so that something written on one node wakes work waiting on
 * every node (e.g. open Server-Sent Event streams). The core holds one listening connection per node, outside the
 * pool, reconnects after a database outage (listeners then get a {@code null} payload: "you may have missed
 * something, look again"), and calls listeners on a virtual thread each. Offered through
 * {@code PluginContext.service(Notifications.class)}.
 *
 * <p>A notification is a hint, not a message queue: it is lost when no node listens, and payloads are short
 * (at most 7,000 bytes). Keep the truth in tables and read them when woken.
 */
public interface Notifications {

    /**
     * Calls {@code listener} with the payload of every notification on {@code channel} (lowercase letters, digits and
     * {@code _}, starting with a letter, at most 63 characters), from any node, until the returned handle is closed.
     */
    Listening listen(String channel, Consumer<String> listener);

    /** Sends a notification when {@code tx} commits (nothing if it rolls back). */
    void notify(WorkspaceTx tx, String channel, String payload);

    /** Stops a listener. */
    interface Listening extends AutoCloseable {
        @Override
        void close();
    }
}
