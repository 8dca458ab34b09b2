package dev.lnp.outbound;

import dev.lnp.api.internal.subsystem.Subsystem;
import dev.lnp.api.outbound.OutboundGuard;
import java.util.Map;

/**
 * The outbound address guard as a subsystem of the kernel: offers {@link OutboundGuard} to the subsystems after it
 * (webhooks) and to plugins (the chatbot's language model calls), allowing the networks of
 * {@code lnp.outbound.allowed_networks} besides public addresses.
 */
public final class OutboundSubsystem implements Subsystem {

    @Override
    public Map<Class<?>, Object> offer(Services services) {
        try {
            return Map.of(OutboundGuard.class,
                    PlatformOutboundGuard.allowing(services.config().list(PlatformOutboundGuard.SETTING)));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(PlatformOutboundGuard.SETTING + ": " + e.getMessage(), e);
        }
    }

    /** Before every subsystem that sends to addresses people give (webhooks, at the default rank). */
    @Override
    public int rank() {
        return 5;
    }
}
