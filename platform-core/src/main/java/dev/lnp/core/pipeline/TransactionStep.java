package dev.lnp.core.pipeline;

import dev.lnp.api.WorkspaceTx;
import dev.lnp.core.auth.AdmissionCheck;
import dev.lnp.core.db.WorkspaceTransactions;
import java.util.UUID;

/**
 * Runs the rest of the pipeline in one workspace transaction (the request role, the workspace set): the
 * handler's rows, its outbox events and, on routes, the idempotency record commit or roll back together. For a
 * caller admitted from the node's cache, the transaction's first statement also re-checks the admission
 * ({@link AdmissionCheck}).
 */
public final class TransactionStep implements PipelineStep<TransactionStep.Transactional> {

    /** A call that runs in a workspace transaction. */
    public interface Transactional {

        UUID workspaceId();

        /** The check of a caller admitted from the node's cache, made by the transaction's first statement; or null. */
        default AdmissionCheck admissionCheck() {
            return null;
        }

        /** Hands the open transaction to the steps after this one. */
        void openedTx(WorkspaceTx tx);
    }

    private final WorkspaceTransactions transactions;

    public TransactionStep(WorkspaceTransactions transactions) {
        this.transactions = transactions;
    }

    @Override
    public String name() {
        return "transaction";
    }

    @Override
    public void apply(Transactional call, Rest rest) {
        transactions.inWorkspace(call.workspaceId(), call.admissionCheck(), tx -> {
            call.openedTx(tx);
            rest.proceed();
            return null;
        });
    }
}
