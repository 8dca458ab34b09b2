package dev.lnp.core.auth;

/**
 * A request admitted from this node's {@link AdmissionCache} rather than from the database: its workspace
 * transaction's first statement reads the admission's fingerprint again ({@link KeyRepository#ADMISSION_FINGERPRINT})
 * and the transaction goes on only when it is unchanged. Otherwise it throws {@link Stale} before any work, the
 * transaction rolls back, and the request is admitted again from the database. A request that ends in an error
 * before any transaction checked it is {@linkplain Authenticator#confirm confirmed} with a statement of its own
 * before the error is answered, so a revoked key gets its 401, not another error.
 */
public final class AdmissionCheck {

    private final byte[] hash;
    private final String fingerprint;
    private volatile boolean verified;

    /**
     * @param hash        the key's hash, bound as {@code :hash}
     * @param fingerprint the cached admission's fingerprint
     */
    AdmissionCheck(byte[] hash, String fingerprint) {
        this.hash = hash;
        this.fingerprint = fingerprint;
    }

    public byte[] hash() {
        return hash;
    }

    /** Compares the fingerprint a statement read ({@code null}: the key is gone) with the cached one. */
    public void verify(String current) {
        if (!fingerprint.equals(current)) {
            throw new Stale();
        }
        verified = true;
    }

    /** Whether no statement has compared the fingerprint yet. */
    public boolean pending() {
        return !verified;
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
