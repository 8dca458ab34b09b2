package dev.lnp.core.http;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.database.DatabaseOutage;
import dev.lnp.core.pipeline.PipelineStep;
import dev.lnp.server.ClientHangUps;
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
            if (ClientHangUps.isHangUp(e, call.res)) {
                // No problem response on the dead connection; the audit keeps the answer the client was given.
                ClientHangUps.report("request " + call.requestId + " " + call.routeName(), e);
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
}
