package dev.lnp.outbound;

import dev.lnp.api.outbound.OutboundGuard;
import dev.lnp.api.outbound.OutboundRefusal;
import dev.lnp.api.outbound.OutboundRequest;
import dev.lnp.api.outbound.OutboundResponse;
import java.io.IOException;
import java.net.URI;
import java.util.List;

/** The public API's {@link OutboundGuard} on an {@link AddressGuard} and a client that connects through it. */
public final class PlatformOutboundGuard implements OutboundGuard {

    /** The deployment's setting of the networks every feature may reach although private or loopback. */
    public static final String SETTING = "lnp.outbound.allowed_networks";

    private final AddressGuard guard;
    private final GuardedClient client;

    public PlatformOutboundGuard(AddressGuard guard) {
        this.guard = guard;
        this.client = new GuardedClient(guard);
    }

    /** A guard on the system's DNS allowing {@code networks} (CIDR blocks or addresses) besides public addresses. */
    public static PlatformOutboundGuard allowing(List<String> networks) {
        return new PlatformOutboundGuard(AddressGuard.withSystemDns(parse(networks), SETTING));
    }

    @Override
    public URI check(String url) throws OutboundRefusal {
        return guard.checkUrl(url);
    }

    @Override
    public OutboundResponse send(OutboundRequest request) throws OutboundRefusal, IOException {
        return client.send(request);
    }

    @Override
    public OutboundGuard allowing(String setting, List<String> networks) {
        return new PlatformOutboundGuard(guard.allowing(parse(networks), setting));
    }

    private static List<Cidr> parse(List<String> networks) {
        return networks.stream().map(Cidr::parse).toList();
    }
}
