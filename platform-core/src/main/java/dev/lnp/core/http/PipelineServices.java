package dev.lnp.core.http;

import dev.lnp.api.Principal;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.core.auth.Authenticator;
import dev.lnp.core.db.WorkspaceTransactions;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import java.util.Optional;

/** The shared services every route handler calls, in pipeline order. */
public final class PipelineServices {

    private final Authenticator authenticator;
    private final WorkspaceTransactions transactions;
    private final long maxBodyBytes;

    public PipelineServices(Authenticator authenticator, WorkspaceTransactions transactions, long maxBodyBytes) {
        this.authenticator = authenticator;
        this.transactions = transactions;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** 401 for a bad key, 403 for a missing scope. */
    Principal authenticate(ServerRequest req, RouteSpec route, String pluginId) {
        var authenticated = authenticator.authenticate(req.headers().all(HeaderNames.AUTHORIZATION, java.util.List::of));
        Principal principal = authenticated.principal();
        if (!principal.has(route.scope())) {
            throw new ApiProblem(403, "missing_scope", "Forbidden",
                    "This key lacks the scope " + route.scope() + " that " + route.method() + " " + route.path()
                            + " needs.");
        }
        return principal;
    }

    WorkspaceTransactions transactions() {
        return transactions;
    }

    long maxBodyBytes() {
        return maxBodyBytes;
    }

    void audit(Optional<Principal> principal, RouteSpec route, int status, long nanos) {
    }
}
