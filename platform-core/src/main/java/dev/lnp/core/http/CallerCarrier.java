package dev.lnp.core.http;

import dev.lnp.api.workspace.WorkspaceTx;
import java.util.Optional;

/**
 * What the platform's own request objects carry beyond what a plugin sees: the authenticated caller with the
 * connection's settings, and the open transaction. Core services that take a plugin's request (the tool gateway)
 * read them here, so a plugin cannot hand in a caller of its own making.
 */
public interface CallerCarrier {

    /** The caller, or {@code null} on a public route. */
    PipelineServices.Caller caller();

    /** The request's workspace transaction, when the route runs in one. */
    Optional<WorkspaceTx> openTx();

    /** The route template, e.g. {@code /api/mcp/tools/call}. */
    String endpoint();
}
