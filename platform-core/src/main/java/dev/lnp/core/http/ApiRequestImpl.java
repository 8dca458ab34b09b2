package dev.lnp.core.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.workspace.Principal;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.PageRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The request a handler sees, once the pipeline has checked it. */
record ApiRequestImpl(
        String requestId,
        Optional<Principal> principal,
        Map<String, String> pathParams,
        Map<String, List<String>> queryParams,
        PageRequest pageRequest,
        JsonNode body,
        WorkspaceTx tx,
        PipelineServices.Caller caller,
        String endpoint,
        io.helidon.webserver.http.ServerRequest request) implements ApiRequest, CallerCarrier {

    @Override
    public List<String> headers(String name) {
        return request == null ? List.of()
                : request.headers().all(io.helidon.http.HeaderNames.create(name), List::of);
    }

    @Override
    public Optional<String> clientAddress() {
        return request == null ? Optional.empty() : RouteHandler.clientAddress(request);
    }

    @Override
    public Optional<WorkspaceTx> openTx() {
        return Optional.ofNullable(tx);
    }

    @Override
    public WorkspaceTx tx() {
        if (tx == null) {
            throw new IllegalStateException(principal.isEmpty() ? "a public route runs without a transaction"
                    : "this route is declared withoutTransaction(); open one through the platform's services");
        }
        return tx;
    }

    @Override
    public UUID workspaceId() {
        return principal.orElseThrow(() -> new IllegalStateException("public route has no workspace")).workspaceId();
    }

    @Override
    public String path(String name) {
        String value = pathParams.get(name);
        if (value == null) {
            throw new IllegalArgumentException("No path parameter " + name);
        }
        return value;
    }

    @Override
    public UUID pathId(String name) {
        String value = path(name);
        if (!QueryValidator.isUuid(value)) {
            // Parameters named id or *_id are checked before the handler; this covers any other name read as an id.
            throw PathIds.problem(List.of(PathIds.malformed(name)));
        }
        return UUID.fromString(value);
    }

    @Override
    public List<String> queryAll(String name) {
        return queryParams.getOrDefault(name, List.of());
    }
}
