package dev.lnp.api.http;

import dev.lnp.api.workspace.Principal;
import java.util.Optional;

/** What every request a plugin handles has: its id and, on authenticated routes, the caller. */
public interface RequestContext {

    String requestId();

    /** The caller; empty only on public routes. */
    Optional<Principal> principal();

    /**
     * The address of the client that opened the connection (the peer's IP address, without port), for limits per
     * client; forwarding headers are not trusted. Empty when unknown (e.g. internal calls).
     */
    default Optional<String> clientAddress() {
        return Optional.empty();
    }

    /** Every value of a request header (case-insensitive name), in order; empty for internal calls. */
    default java.util.List<String> headers(String name) {
        return java.util.List.of();
    }
}
