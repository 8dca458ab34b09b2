package dev.lnp.core.db;

import dev.lnp.database.opening.AdmissionVersionCheck;
import java.util.UUID;

/**
 * A request admitted from this node's cache of admissions rather than from the database: its workspace
 * transaction's first statement reads the workspace's admission version again ({@link AdmissionVersionCheck#VERSION})
 * and the transaction goes on only when it is unchanged. Otherwise the transaction rolls back (a write's before any
 * work, a read's at its first statement, whose opening travels with it), and the request is admitted again from the
 * database. A request that ends in an error
 * before any transaction checked it is confirmed (the authenticator's {@code confirm}) with a statement of its own
 * before the error is answered, so a revoked key gets its 401, not another error.
 */
public final class AdmissionCheck implements AdmissionVersionCheck {

    private final UUID workspaceId;
    private final long version;
    private volatile boolean compared;

    /**
     * @param workspaceId the key's workspace, bound as {@code :workspace}
     * @param version     the workspace's admission version when the cached admission was read
     */
    public AdmissionCheck(UUID workspaceId, long version) {
        this.workspaceId = workspaceId;
        this.version = version;
    }

    public UUID workspaceId() {
        return workspaceId;
    }

    /** Compares the admission version a statement read with the cached admission's. */
    @Override
    public void verify(long current) {
        if (!current(current)) {
            throw new Stale();
        }
    }

    /**
     * Whether the admission version a statement read is the cached admission's. Either way the admission is then
     * checked: a stale one is admitted again from the database, which answers for it.
     */
    public boolean current(long current) {
        compared = true;
        return current == version;
    }

    /** Whether no statement has compared the version yet. */
    public boolean pending() {
        return !compared;
    }
}
