package dev.lnp.api.events;

/** Writes an event to the outbox in the caller's transaction: rolled back with it, delivered after commit. */
public interface EventPublisher {

    /** @param data the event's payload; serialized as JSON */
    void publish(String eventName, Object data);

    /**
     * The outbox insert of {@code eventName} for the caller to run inside its own statement (see
     * {@link StatementEvent}): one round trip fewer than {@link #publish} after the change, for a payload SQL can
     * build from the changed row.
     *
     * @throws IllegalArgumentException when no plugin registered the event, as {@link #publish}
     */
    StatementEvent inStatement(String eventName);
}
