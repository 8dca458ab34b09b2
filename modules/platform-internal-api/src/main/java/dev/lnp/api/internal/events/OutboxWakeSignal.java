package dev.lnp.api.internal.events;

/** The {@code NOTIFY} the kernel sends after events commit, which the webhook dispatchers listen for. */
public final class OutboxWakeSignal {

    /** The channel the dispatchers listen on. */
    public static final String CHANNEL = "lnp_webhooks";
    /**
     * The payload of these notifications: events committed, so only the dispatchers' fan-out need run. Other
     * payloads on the channel (a redelivery's, older nodes' empty one) wake the claims as well.
     */
    public static final String EVENTS_COMMITTED = "events";

    private OutboxWakeSignal() {
    }
}
