package dev.lnp.core.http;

import dev.lnp.api.workspace.Principal;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.db.AdmissionCheck;
import dev.lnp.core.auth.Authenticator;
import dev.lnp.core.auth.KeyRecord;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.db.WorkspaceTransactions;
import dev.lnp.core.limits.AuditLog;
import dev.lnp.core.limits.IdempotencyStore;
import dev.lnp.core.limits.QuotaCounter;
import dev.lnp.core.limits.QuotaLimits;
import dev.lnp.core.limits.RateLimiter;
import dev.lnp.core.metrics.PlatformMetrics;
import dev.lnp.core.pipeline.QuotaStep;
import dev.lnp.core.pipeline.TransactionStep;
import java.time.Instant;
import java.util.List;

/**
 * The services the request pipeline's steps are built from (see {@link RouteSteps} for the steps): the
 * authentication with the surface's rate limit, the quota and transaction steps that routes and tool calls
 * share, idempotency, the audit. The tool gateway takes the same object, so limits and audit are one
 * implementation.
 */
public final class PipelineServices {

    /**
     * The caller, the connection's settings, the rate-limit verdict for the response headers, and the check the
     * call's transaction makes when the caller was admitted from this node's cache (else null).
     */
    public record Caller(Principal principal, KeyRecord key, RateLimiter.Verdict rate, AdmissionCheck check) {
    }

    private final Authenticator authenticator;
    private final RateLimiter rateLimiter;
    private final QuotaStep quotaStep;
    private final TransactionStep transactionStep;
    private final IdempotencyStore idempotency;
    private final AuditLog audit;
    private final long maxBodyBytes;
    /** The deployment's default limits (a connection or workspace may override them). */
    public record Limits(int restPerMinute, int mcpPerMinute, QuotaLimits quotas) {
    }

    private final int restPerMinute;
    private final int mcpPerMinute;
    private final QuotaLimits quotaLimits;
    private final AllowedOrigins allowedOrigins;
    private final PlatformMetrics metrics;
    private final dev.lnp.database.DatabaseOutage outage;

    public PipelineServices(Authenticator authenticator, WorkspaceTransactions transactions, RateLimiter rateLimiter,
            QuotaCounter quotas, QuotaLimits quotaLimits, IdempotencyStore idempotency, AuditLog audit,
            PlatformConfig config, PlatformMetrics metrics, dev.lnp.database.DatabaseOutage outage) {
        this.metrics = metrics;
        this.outage = outage;
        this.authenticator = authenticator;
        this.rateLimiter = rateLimiter;
        this.quotaStep = new QuotaStep(quotas, quotaLimits, metrics);
        this.transactionStep = new TransactionStep(transactions);
        this.idempotency = idempotency;
        this.audit = audit;
        this.maxBodyBytes = config.maxBodyBytes();
        this.restPerMinute = config.getInt("lnp.limits.rest_per_minute", 600);
        this.mcpPerMinute = config.getInt("lnp.limits.mcp_per_minute", 120);
        this.quotaLimits = quotaLimits;
        this.allowedOrigins = AllowedOrigins.from(config);
    }

    dev.lnp.database.DatabaseOutage outage() {
        return outage;
    }

    AllowedOrigins allowedOrigins() {
        return allowedOrigins;
    }

    /** Authentication and the per-minute limit of one surface ({@code rest} or {@code mcp}). */
    public Caller authenticate(List<String> authorizationHeaders, String surface) {
        RateLimiter.Window window = rateLimiter.window(surface);
        return caller(authenticator.authenticate(authorizationHeaders, window), window, surface);
    }

    /** An admitted route call: its caller, and the unit of the route's quota its admission took (or null). */
    record Admitted(Caller caller, QuotaStep.AdmittedUnit quotaUnit) {
    }

    /**
     * {@link #authenticate} that also takes a unit of the route's {@code quota} (null: none) in the admission
     * statement; the quota step takes it over. When the key is refused here (MCP-only key, rate limit), the unit
     * is given back before the refusal is thrown. With {@code checkedLater}, the caller's transaction verifies
     * {@link Caller#check} (see {@link Authenticator#authenticate(List, RateLimiter.Window,
     * dev.lnp.core.limits.QuotaCharge, boolean)}).
     */
    Admitted admit(List<String> authorizationHeaders, String surface, String quota, boolean checkedLater) {
        RateLimiter.Window window = rateLimiter.window(surface);
        var authenticated = authenticator.authenticate(authorizationHeaders, window, quotaStep.charge(quota),
                checkedLater);
        QuotaStep.AdmittedUnit unit = authenticated.quotaTaken()
                ? new QuotaStep.AdmittedUnit(authenticated.principal().workspaceId(), quota) : null;
        try {
            return new Admitted(caller(authenticated, window, surface), unit);
        } catch (RuntimeException refused) {
            quotaStep.release(unit);
            if (refused instanceof ApiProblem problem && problem.status() < 500) {
                // A refusal read off a cached admission (an MCP-only key, say) stands only if it is still current.
                confirm(authenticated.check());
            }
            throw refused;
        }
    }

    private Caller caller(Authenticator.Authenticated authenticated, RateLimiter.Window window, String surface) {
        KeyRecord key = authenticated.key();
        if (key.mcpOnly() && !"mcp".equals(surface)) {
            throw new ApiProblem(403, "key_not_valid_for_rest", "Forbidden", "This key works on the MCP surface "
                    + "only (/api/mcp); it cannot call REST routes.");
        }
        int limit = "mcp".equals(surface)
                ? (key.mcpPerMinute() != null ? key.mcpPerMinute() : mcpPerMinute)
                : (key.restPerMinute() != null ? key.restPerMinute() : restPerMinute);
        if (authenticated.lease() != null) {
            authenticated.lease().limit(limit);
        }
        RateLimiter.Verdict verdict;
        try {
            verdict = rateLimiter.verdict(window, authenticated.hits(), limit);
        } catch (ApiProblem refused) {
            metrics.refused("rate_limit", surface);
            throw refused;
        }
        metrics.admitted(authenticated.check() != null);
        return new Caller(authenticated.principal(), key, verdict, authenticated.check());
    }

    /** See {@link Authenticator#confirm}. */
    public void confirm(AdmissionCheck check) {
        authenticator.confirm(check);
    }

    /** The one quota step, shared by routes and tool calls. */
    public QuotaStep quotaStep() {
        return quotaStep;
    }

    /** The one workspace-transaction step, shared by routes and tool calls. */
    public TransactionStep transactionStep() {
        return transactionStep;
    }

    public PlatformMetrics metrics() {
        return metrics;
    }

    IdempotencyStore idempotency() {
        return idempotency;
    }

    long maxBodyBytes() {
        return maxBodyBytes;
    }

    /** The audit row (for authenticated callers) and the request's {@code http_server_requests_seconds} sample. */
    void audit(Caller caller, String surface, String method, String route, String requestId, int status,
            long nanos) {
        metrics.request(method, route, status, nanos);
        if (caller != null) {
            audit.record(new AuditLog.Entry(Instant.now(), requestId, caller.principal().workspaceId(),
                    caller.principal().connectionId(), surface, method, route, status, nanos / 1_000_000.0));
        }
    }

    public Limits limits() {
        return new Limits(restPerMinute, mcpPerMinute, quotaLimits);
    }
}
