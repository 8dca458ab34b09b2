package dev.lnp.api.internal.http;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.RawRequest;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;

/** The kernel's HTTP answers, for routes a subsystem serves outside the plugin routes (the console's). */
public interface HttpAnswers {

    /** Writes {@code problem} as problem+json with the request id, as every API route answers it. */
    void problem(ServerResponse res, String requestId, ApiProblem problem);

    /** The problem a failure is answered with: 503 for an unreachable database, else a 500 saying nothing more. */
    ApiProblem forFailure(Throwable failure);

    /** 400 {@code invalid_path_parameter} for one malformed id, as {@code /api/v1} answers it. */
    ApiProblem malformedId(String name);

    /** Whether {@code failure} is only the client hanging up under its answer, which is not an error. */
    boolean isHangUp(RuntimeException failure, ServerResponse res);

    /** Logs a client that hung up under its answer, as the API's routes do ({@code what}: the request). */
    void reportHangUp(String what, RuntimeException failure);

    /** The server request under a raw route's request (a plugin's page for people). */
    Optional<ServerRequest> serverRequest(RawRequest raw);
}
