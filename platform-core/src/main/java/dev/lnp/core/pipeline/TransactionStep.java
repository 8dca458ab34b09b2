package dev.lnp.core.pipeline;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.db.AdmissionCheck;
import dev.lnp.database.SqlStates;
import dev.lnp.core.db.WorkspaceTransactions;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs the rest of the pipeline in one workspace transaction (the request role, the workspace set by the
 * transaction's opening statement): the handler's rows, its outbox events and, on routes, the idempotency record
 * commit or roll back together. For a caller admitted from the node's cache, the opening statement also re-checks
 * the admission ({@link AdmissionCheck}); when it changed, the transaction rolls back and the call is told
 * ({@link Transactional#admissionStale}).
 *
 * <p>The opening does not go on its own: it rides with the handler's first statement, in one round trip
 * ({@code db.TransactionOpening}: the transaction's connection is a {@code db.OpeningConnection}, whose first
 * statement is a {@code db.JoinedStatement}), except for a write with a cached admission, whose check must come
 * before its handler runs. A read (a GET, a read-only tool) also sends no commit: it runs in autocommit, every
 * statement with the opening and read-only. One that writes all the same is refused before it wrote anything
 * (SQLSTATE 25006) and runs again at once as a write; its route or tool ({@link Transactional#readKey}) then runs
 * as a write from then on.
 *
 * <p>A transaction PostgreSQL aborts to break a deadlock (SQLSTATE 40P01) or for a serialization failure (40001)
 * left nothing behind, and running it again is what PostgreSQL's manual prescribes: the rest of the pipeline runs
 * again in a new transaction, up to {@link #ATTEMPTS} times in all, after a short random pause ({@link #RETRY}). The
 * request's body and arguments were read before this step, and the answer is sent only after it, so a second run
 * sees the same input and the client one answer. When every run is aborted, the call ends with
 * {@code 409 concurrent_update}.
 */
public final class TransactionStep implements PipelineStep<TransactionStep.Transactional> {

    private static final System.Logger LOG = System.getLogger(TransactionStep.class.getName());

    /** Runs of a call's transaction before a deadlock or serialization failure is the answer. */
    public static final int ATTEMPTS = 3;

    /**
     * A deadlock or serialization failure runs the transaction again after a few random milliseconds, about twice
     * as many the second time, so that the aborted side lets the other one finish first.
     */
    private static final RetryPolicy<Object> RETRY = RetryPolicy.builder()
            .handleIf(failure -> conflictState(failure) != null)
            .withMaxAttempts(ATTEMPTS)
            .withBackoff(Duration.ofMillis(10), Duration.ofMillis(40))
            .withJitter(0.5)
            .onRetry(retry -> LOG.log(Level.DEBUG, () -> "the transaction was aborted (SQLSTATE "
                    + conflictState(retry.getLastException()) + "); running it again: "
                    + retry.getLastException().getMessage()))
            .build();

    /** A call that runs in a workspace transaction. */
    public interface Transactional {

        UUID workspaceId();

        /** The check of a caller admitted from the node's cache, made by the transaction's opening; or null. */
        default AdmissionCheck admissionCheck() {
            return null;
        }

        /**
         * Whether the call only reads (a GET, a read-only tool): its opening then rides with its first statement
         * even when it checks a cached admission, and it runs in autocommit, sending no commit.
         */
        boolean read();

        /**
         * What a read that wrote is remembered by, to run as a write from then on: its route or its tool, one of a
         * bounded set (never the call itself).
         */
        Object readKey();

        /** Hands the open transaction to the steps after this one. */
        void openedTx(WorkspaceTx tx);

        /**
         * The transaction's opening found the cached admission stale and rolled back before anything ran: the call
         * is to be admitted again from the database.
         */
        void admissionStale();
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
        try {
            if (!runAsReadOrWrite(call, rest)) {
                call.admissionStale();
            }
        } catch (FailsafeException e) {
            if (e.getCause() instanceof InterruptedException) {
                // Interrupted in the pause between two runs: the transaction's failures are thrown as they are.
                Thread.currentThread().interrupt();
                throw concurrentUpdate();
            }
            throw e;
        } catch (RuntimeException e) {
            String state = conflictState(e);
            if (state == null) {
                throw e;
            }
            LOG.log(Level.WARNING, "the transaction was aborted " + ATTEMPTS + " times (SQLSTATE " + state
                    + "); answering 409: " + e.getMessage());
            throw concurrentUpdate();
        }
    }

    /**
     * The call's transaction, as a read when it is declared one and has not been found to write; a read that
     * writes runs again at once as a write (nothing of it was written). False when the admission was stale.
     */
    private boolean runAsReadOrWrite(Transactional call, Rest rest) {
        // Nearly always empty: no key is built for the look-up then.
        boolean read = call.read() && (readsThatWrite.isEmpty() || !readsThatWrite.contains(call.readKey()));
        if (!read) {
            return run(call, false, rest);
        }
        try {
            return run(call, true, rest);
        } catch (RuntimeException e) {
            if (!WorkspaceTransactions.readWrote(e)) {
                throw e;
            }
            if (readsThatWrite.add(call.readKey())) {
                // The SQLSTATE only: the statement's message may carry the request's values.
                LOG.log(Level.INFO, () -> call.readKey() + " wrote while it ran as a read (SQLSTATE 25006): it runs "
                        + "as a write from now on");
            }
            return run(call, false, rest);
        }
    }

    /** The transaction, run again on a deadlock or serialization failure; false when the admission was stale. */
    private boolean run(Transactional call, boolean read, Rest rest) {
        return Failsafe.with(RETRY).get(() -> transactions.inWorkspaceIfAdmitted(call.workspaceId(),
                call.admissionCheck(), read, tx -> {
                    call.openedTx(tx);
                    rest.proceed();
                    return null;
                }));
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
}
