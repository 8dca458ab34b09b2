package dev.lnp.api.events;

/** Writes an event to the outbox in the caller's transaction: rolled back with it, delivered after commit. */
public interface EventPublisher {

    /** @param data the event's payload; serialized as JSON */
    void publish(String eventName, Object data);
}
