package dev.lnp.core.http;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.db.DatabaseOutage;
import dev.lnp.core.pipeline.PipelineStep;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerResponse;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;

/**
 * Any failure of the steps after it becomes problem+json: an {@code ApiProblem} as it is, an unreachable database
 * a 503, anything else a 500 carrying only the request id (logged with the stack trace).
 */
final class ProblemStep implements PipelineStep<RouteCall> {

    /** The request log's name from before the steps: what operators' log filters and the tests select. */
    private static final System.Logger LOG = System.getLogger(RouteHandler.class.getName());

    private final DatabaseOutage outage;

    ProblemStep(DatabaseOutage outage) {
        this.outage = outage;
    }

    @Override
    public String name() {
        return "problems";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        try {
            rest.proceed();
        } catch (ApiProblem problem) {
            call.status = problem.status();
            Problems.write(call.res, call.requestId, problem);
        } catch (RuntimeException e) {
            if (clientHungUp(e, call.res)) {
                // The client hung up while its answer was being written (a closed tab, a load generator
                // stopping): nothing can reach it any more and nothing failed here, so no error and no
                // problem response on the dead connection; the audit keeps the answer it was given.
                LOG.log(Level.DEBUG, () -> "request " + call.requestId + ": the client closed the connection "
                        + "before the response was written (" + e.getMessage() + ")");
                return;
            }
            ApiProblem problem = Problems.forFailure(e);
            call.status = problem.status();
            if (call.status == 503) {
                // One line: during an outage every request lands here, and the cause is always the same. Worded
                // for both causes: the database gone, or a saturated pool (DatabaseOutage tells them apart).
                outage.reportUnreachable();
                LOG.log(Level.WARNING, "request " + call.requestId + " answered 503: no database connection ("
                        + e + ")");
            } else {
                LOG.log(Level.ERROR, "request " + call.requestId + " failed: " + call.routeName(), e);
            }
            Problems.write(call.res, call.requestId, problem);
        }
    }

    /**
     * Whether a failure is the connection dying under an answer already handed to the server. Helidon 4.4 let the
     * socket's {@link UncheckedIOException} through; 4.5 wraps it in a {@link CloseConnectionException}
     * ({@code ServerConnectionException: Failed to write response}), so both are recognised, and only once the
     * response counts as sent: before that, an I/O failure is ours to report.
     */
    private static boolean clientHungUp(RuntimeException e, ServerResponse res) {
        return res.isSent() && (e instanceof UncheckedIOException || e instanceof CloseConnectionException);
    }
}
