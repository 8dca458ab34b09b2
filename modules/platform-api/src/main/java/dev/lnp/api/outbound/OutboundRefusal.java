package dev.lnp.api.outbound;

/**
 * A URL or address the platform will not send to. {@link #rule()} is stable ({@code format}, {@code scheme},
 * {@code credentials}, {@code unresolvable}, {@code blocked_address}), fit for the {@code rule} of a problem's field
 * error; the message says why in words a person reads (which address, what kind, which setting allows it).
 */
public final class OutboundRefusal extends Exception {

    private final String rule;

    public OutboundRefusal(String rule, String message) {
        super(message, null, false, false);
        this.rule = rule;
    }

    public String rule() {
        return rule;
    }
}
