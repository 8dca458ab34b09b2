package dev.lnp.webhooks;

import io.helidon.webclient.api.DnsAddressLookup;
import io.helidon.webclient.spi.DnsResolver;
import java.net.InetAddress;

/**
 * A Helidon web client's name resolution through a {@link ReceiverGuard}: every new connection goes to an address the
 * guard has just approved, so a name re-pointed inside after an earlier check gets nowhere. Shared by the webhook
 * sender and any other outbound request to an address someone else chose (a client's metadata document).
 */
public record GuardedDnsResolver(ReceiverGuard guard) implements DnsResolver {

    /** Carries a guard refusal out of Helidon's connection set-up. */
    public static final class AddressRefused extends RuntimeException {
        private final ReceiverGuard.Refused refused;

        AddressRefused(ReceiverGuard.Refused refused) {
            super(refused.getMessage(), refused, false, false);
            this.refused = refused;
        }

        public ReceiverGuard.Refused refused() {
            return refused;
        }

        /** The refusal somewhere in {@code e}'s causes (Helidon wraps what a resolver throws), or null. */
        public static AddressRefused in(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof AddressRefused found) {
                    return found;
                }
            }
            return null;
        }
    }

    @Override
    public boolean useDefaultJavaResolver() {
        return false;
    }

    @Override
    public InetAddress resolveAddress(String hostname, DnsAddressLookup lookup) {
        try {
            return guard.addressFor(hostname);
        } catch (ReceiverGuard.Refused refused) {
            throw new AddressRefused(refused);
        }
    }
}
