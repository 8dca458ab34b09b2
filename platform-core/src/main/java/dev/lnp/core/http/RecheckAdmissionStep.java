package dev.lnp.core.http;

import dev.lnp.core.pipeline.PipelineStep;

/**
 * Around the transaction, for a caller the admit step may take from the node's cache: the transaction's opening
 * statement reads the workspace's admission version, and when it changed the transaction rolls back. A write's
 * opening is sent before its handler runs; a read's rides with the handler's first statement
 * ({@code db.TransactionOpening}), whose result the handler never gets, and what the handler did through the
 * transaction is rolled back with it. This step then admits the call again from the database (a revoked key's 401, a
 * scope taken away's 403, a module switched off's 404) and runs the transaction once more, its admission now the
 * database's, with nothing left to check. The steps before it (path ids, query, body, quota) do not run again:
 * none of them depends on the admission beyond the workspace, which a key never changes.
 */
final class RecheckAdmissionStep implements PipelineStep<RouteCall> {

    private final AdmitStep admit;

    RecheckAdmissionStep(AdmitStep admit) {
        this.admit = admit;
    }

    @Override
    public String name() {
        return "recheck admission";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        rest.proceed();
        if (call.staleAdmission) {
            call.staleAdmission = false;
            admit.admitAgain(call);
            rest.proceed();
        }
    }
}
