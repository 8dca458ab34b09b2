package dev.lnp.api.outbound;

import java.io.IOException;
import java.net.URI;
import java.util.List;

/**
 * The platform's guard on requests to addresses people give it (a webhook receiver, a language model's base URL):
 * such a URL must not reach the deployment's own networks (loopback, private, link-local such as cloud metadata at
 * 169.254.169.254), unless the operator allowed the network ({@code lnp.outbound.allowed_networks}). Get it from
 * {@code PluginContext.service(OutboundGuard.class)}.
 *
 * <p>Check a URL when it is saved ({@link #check}), so the person hears why at once; send every request through
 * {@link #send}, which checks the host again and connects to exactly the address it checked, so a name re-pointed
 * to an inner address after the first check (DNS rebinding) gets nowhere. Redirects are never followed and no proxy
 * is used.
 */
public interface OutboundGuard {

    /**
     * Checks a URL as a person gave it: an absolute http(s) URL with a host, without user name, password or
     * fragment, whose host resolves now to addresses the platform may reach.
     *
     * @throws OutboundRefusal with a stable {@link OutboundRefusal#rule()} and a sentence for the person
     */
    URI check(String url) throws OutboundRefusal;

    /**
     * Sends a request to a checked address. The answer's body is streamed (server-sent events can be read as they
     * arrive) and ends at the request's response cap. Close the response.
     *
     * @throws OutboundRefusal when the URL or the address its host resolves to now is refused; nothing was sent
     * @throws IOException     when the connection fails or the server does not answer within the timeout
     */
    OutboundResponse send(OutboundRequest request) throws OutboundRefusal, IOException;

    /**
     * This guard, also allowing {@code networks} (CIDR blocks such as {@code 10.20.0.0/16}, or single addresses)
     * for one feature that has a setting of its own; its refusals name {@code setting}.
     *
     * @throws IllegalArgumentException when a network is not an IP network
     */
    OutboundGuard allowing(String setting, List<String> networks);
}
