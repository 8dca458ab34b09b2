package dev.lnp.core.http;

import dev.lnp.api.workspace.Principal;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.RawRequest;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import java.util.List;
import java.util.Optional;

/** A raw route's request: the checked caller, the headers and the unparsed body. */
public record RawRequestImpl(String requestId, ServerRequest request, byte[] body, PipelineServices.Caller caller,
        String endpoint) implements RawRequest, CallerCarrier {

    @Override
    public Optional<Principal> principal() {
        return caller == null ? Optional.empty() : Optional.of(caller.principal());
    }

    @Override
    public List<String> headers(String name) {
        return request.headers().all(HeaderNames.create(name), List::of);
    }

    @Override
    public Optional<String> clientAddress() {
        return RouteHandler.clientAddress(request);
    }

    @Override
    public Optional<String> query(String name) {
        return request.query().first(name).asOptional();
    }

    @Override
    public String path() {
        return request.path().path();
    }

    /** The server request behind a raw request of this pipeline (for core services such as the people pages). */
    public static Optional<ServerRequest> serverRequest(RawRequest raw) {
        return raw instanceof RawRequestImpl impl ? Optional.of(impl.request()) : Optional.empty();
    }

    @Override
    public Optional<WorkspaceTx> openTx() {
        return Optional.empty();
    }
}
