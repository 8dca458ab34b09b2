package dev.lnp.core.pipeline;

import dev.lnp.api.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.auth.AdmissionCheck;
import dev.lnp.core.db.SqlStates;
import dev.lnp.core.db.WorkspaceTransactions;
import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs the rest of the pipeline in one workspace transaction (the request role, the workspace set): the
 * handler's rows, its outbox events and, on routes, the idempotency record commit or roll back together. For a
 * caller admitted from the node's cache, the transaction's first statement also re-checks the admission
 * ({@link AdmissionCheck}).
 *
 * <p>A transaction PostgreSQL aborts to break a deadlock (SQLSTATE 40P01) or for a serialization failure (40001)
 * left nothing behind, and running it again is what PostgreSQL's manual prescribes: the rest of the pipeline runs
 * again in a new transaction, up to {@link #ATTEMPTS} times in all, after a short random pause. The request's body
 * and arguments were read before this step, and the answer is sent only after it, so a second run sees the same
 * input and the client one answer. When every run is aborted, the call ends with {@code 409 concurrent_update}.
 *
 * <p>A read (a GET, a read-only tool) runs without a transaction of its own, each statement read-only
 * ({@link WorkspaceTransactions#inWorkspace(UUID, AdmissionCheck, boolean, dev.lnp.api.PluginContext.WorkspaceWork)}).
 * One that writes all the same is refused before it wrote anything, and runs again at once as a write; its route
 * or tool ({@link Transactional#readKey}) then runs as a write from then on.
 */
public final class TransactionStep implements PipelineStep<TransactionStep.Transactional> {

    private static final System.Logger LOG = System.getLogger(TransactionStep.class.getName());

    /** Runs of a call's transaction before a deadlock or serialization failure is the answer. */
    public static final int ATTEMPTS = 3;

    /** A call that runs in a workspace transaction. */
    public interface Transactional {

        UUID workspaceId();

        /** The check of a caller admitted from the node's cache, made by the transaction's first statement; or null. */
        default AdmissionCheck admissionCheck() {
            return null;
        }

        /**
         * Whether the call only reads (a GET, a read-only tool): its transaction's opening statement then travels
         * with its first statement even when it checks a cached admission ({@link WorkspaceTransactions#inWorkspace(
         * UUID, AdmissionCheck, boolean, dev.lnp.api.PluginContext.WorkspaceWork)}).
         */
        default boolean read() {
            return false;
        }

        /**
         * What a read that wrote is remembered by, to run as a write from then on: its route or its tool, one of a
         * bounded set (never the call itself).
         */
        Object readKey();

        /** Hands the open transaction to the steps after this one. */
        void openedTx(WorkspaceTx tx);
    }

    private final WorkspaceTransactions transactions;
    /** Routes and tools declared as reads that were found to write. */
    private final Set<Object> readsThatWrite = ConcurrentHashMap.newKeySet();

    public TransactionStep(WorkspaceTransactions transactions) {
        this.transactions = transactions;
    }

    @Override
    public String name() {
        return "transaction";
    }

    @Override
    public void apply(Transactional call, Rest rest) {
        // Nearly always empty: no key is built for the look-up then.
        boolean read = call.read() && (readsThatWrite.isEmpty() || !readsThatWrite.contains(call.readKey()));
        for (int attempt = 1; ; attempt++) {
            try {
                transactions.inWorkspace(call.workspaceId(), call.admissionCheck(), read, tx -> {
                    call.openedTx(tx);
                    rest.proceed();
                    return null;
                });
                return;
            } catch (RuntimeException e) {
                if (read && WorkspaceTransactions.readWrote(e)) {
                    read = false;
                    attempt--;
                    if (readsThatWrite.add(call.readKey())) {
                        // The SQLSTATE only: the statement's message may carry the request's values.
                        LOG.log(Level.INFO, () -> call.readKey() + " wrote while it ran as a read (SQLSTATE "
                                + "25006): it runs as a write from now on");
                    }
                    continue;
                }
                String state = conflictState(e);
                if (state == null) {
                    throw e;
                }
                if (attempt == ATTEMPTS) {
                    LOG.log(Level.WARNING, "the transaction was aborted " + ATTEMPTS + " times (SQLSTATE " + state
                            + "); answering 409: " + e.getMessage());
                    throw concurrentUpdate();
                }
                LOG.log(Level.DEBUG, () -> "the transaction was aborted (SQLSTATE " + state + "); running it again: "
                        + e.getMessage());
                pause(attempt);
            }
        }
    }

    /** The SQLSTATE of a deadlock or a serialization failure anywhere in the failure's causes; else null. */
    static String conflictState(Throwable failure) {
        return SqlStates.find(failure, state -> state.equals("40P01") || state.equals("40001"));
    }

    static ApiProblem concurrentUpdate() {
        return ApiProblem.conflict("concurrent_update", "Other requests changed the same data at the same time, and "
                + "the database rolled this one back " + ATTEMPTS + " times to let them finish. Nothing of it was "
                + "saved: read the current state and try again.");
    }

    /** A few milliseconds, random, longer each time, so that the aborted side lets the other one finish first. */
    private static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(5, 25) * attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw concurrentUpdate();
        }
    }
}
