package dev.lnp.web.console;

import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.internal.db.Transactions;
import java.util.UUID;

/** Plugin code a console page runs: sections' callbacks and the page API's handlers. */
final class PluginCode {

    /** A callback of a plugin, which may throw what it likes. */
    @FunctionalInterface
    interface Work<R> {
        R run(WorkspaceTx tx) throws Exception;
    }

    private PluginCode() {
    }

    /**
     * Runs {@code work} in the workspace's transaction; a runtime exception (a plugin's {@code ApiProblem}) comes back
     * out as it was thrown, a checked one rolls the transaction back and fails the page.
     */
    static <R> R inWorkspace(Transactions transactions, UUID workspaceId, Work<R> work) {
        return transactions.inWorkspace(workspaceId, tx -> {
            try {
                return work.run(tx);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
