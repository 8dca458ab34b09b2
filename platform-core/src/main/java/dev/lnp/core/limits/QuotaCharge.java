package dev.lnp.core.limits;

import java.time.LocalDate;

/**
 * A quota unit for the admission statement to take ({@link dev.lnp.core.auth.KeyRepository#admit}): the quota,
 * the month it counts in (UTC), and the deployment's limit, used when the workspace has no limit of its own (the
 * statement reads the workspace's limit itself, as {@link QuotaLimits#limit} would).
 */
public record QuotaCharge(String quota, LocalDate month, long deploymentLimit) {
}
