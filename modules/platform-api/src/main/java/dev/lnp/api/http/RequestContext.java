package dev.lnp.api.http;

import dev.lnp.api.Principal;
import java.util.Optional;

/** What every request a plugin handles has: its id and, on authenticated routes, the caller. */
public interface RequestContext {

    String requestId();

    /** The caller; empty only on public routes. */
    Optional<Principal> principal();
}
