package dev.lnp.core.auth;

/**
 * A request admitted from this node's {@link AdmissionCache} rather than from the database: its workspace
 * transaction's first statement reads the admission's fingerprint again ({@link KeyRepository#ADMISSION_FINGERPRINT})
 * and the transaction goes on only when it is unchanged. Otherwise it throws {@link Stale} before any work, the
 * transaction rolls back, and the request is admitted again from the database.
 *
 * @param hash        the key's hash, bound as {@code :hash}
 * @param fingerprint the cached admission's fingerprint
 */
public record AdmissionCheck(byte[] hash, String fingerprint) {

    /** Whether the fingerprint the transaction read ({@code null}: the key is gone) is the cached one. */
    public void verify(String current) {
        if (!fingerprint.equals(current)) {
            throw new Stale();
        }
    }

    /**
     * The key, its connection, workspace, quotas or delegated user changed since this node cached the admission:
     * the caller admits the request again from the database (which answers a revoked key's 401).
     */
    public static final class Stale extends RuntimeException {
        Stale() {
            super("the cached admission is stale", null, false, false);
        }
    }
}
