package dev.lnp.core;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.RawRequest;
import dev.lnp.api.internal.http.HttpAnswers;
import dev.lnp.core.http.PathIds;
import dev.lnp.core.http.Problems;
import dev.lnp.core.http.RawRequestImpl;
import dev.lnp.server.ClientHangUps;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;

/** The HTTP pipeline's answers ({@link HttpAnswers}) for the routes subsystems serve (the console's). */
final class KernelHttpAnswers implements HttpAnswers {

    @Override
    public void problem(ServerResponse res, String requestId, ApiProblem problem) {
        Problems.write(res, requestId, problem);
    }

    @Override
    public ApiProblem forFailure(Throwable failure) {
        return Problems.forFailure(failure);
    }

    @Override
    public ApiProblem malformedId(String name) {
        return PathIds.malformedProblem(name);
    }

    @Override
    public boolean isHangUp(RuntimeException failure, ServerResponse res) {
        return ClientHangUps.isHangUp(failure, res);
    }

    @Override
    public void reportHangUp(String what, RuntimeException failure) {
        ClientHangUps.report(what, failure);
    }

    @Override
    public Optional<ServerRequest> serverRequest(RawRequest raw) {
        return RawRequestImpl.serverRequest(raw);
    }
}
