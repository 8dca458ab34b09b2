package dev.lnp.api.internal.events;

import dev.lnp.api.Registrar;

/**
 * In-process subscriptions to events from the outbox, declared at registration. The platform's {@link Registrar}
 * implements this interface; first-party plugins reach it with {@link #of}.
 */
public interface Subscriptions {

    /**
     * Subscribes to an event (its canonical name, e.g. {@code issues.comment.created}) in process: the platform
     * delivers every such event committed after the subscriber first registered, at least once, from the outbox,
     * with a cursor per subscriber ({@code <plugin id>:<event name>}) kept in the database; across nodes one node at a
     * time delivers. Handlers must be idempotent (dedupe on {@link DeliveredEvent#id()}).
     */
    Subscriptions subscribe(String eventName, EventHandler handler);

    /** The subscribing side of the registrar a plugin was given in {@code register}. */
    static Subscriptions of(Registrar registrar) {
        if (registrar instanceof Subscriptions subscriptions) {
            return subscriptions;
        }
        throw new IllegalStateException("the registrar of plugin " + registrar.pluginId()
                + " cannot subscribe to events");
    }
}
