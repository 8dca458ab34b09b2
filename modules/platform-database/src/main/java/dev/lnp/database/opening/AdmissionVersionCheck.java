package dev.lnp.database.opening;

/**
 * A cached admission the opening statement of a workspace transaction checks ({@link TransactionOpening}): the
 * opening reads the workspace's admission version ({@link #VERSION}) and hands it to {@link #verify}, which throws
 * {@link Stale} when it changed since the admission was cached; the transaction then rolls back. The kernel's
 * admission cache decides what an admission is and what a stale one means.
 */
public interface AdmissionVersionCheck {

    /**
     * The workspace's admission version, bound as {@code :workspace}: a counter that moves whenever anything an
     * admission is made of has changed (a key, its connection, the workspace, its quotas or a delegated user). Here,
     * beside the transaction's opening, because the opening reads it; authentication reads it too.
     */
    String VERSION =
            "COALESCE((SELECT version FROM lnp_core.admission_versions WHERE workspace_id = :workspace), 0)";

    /** Compares the admission version a statement read with the cached admission's; throws {@link Stale} if not. */
    void verify(long current);

    /**
     * The key, its connection, workspace, quotas or delegated user changed since this node cached the admission:
     * the caller admits the request again from the database (which answers a revoked key's 401).
     */
    final class Stale extends RuntimeException {
        public Stale() {
            super("the cached admission is stale", null, false, false);
        }
    }
}
