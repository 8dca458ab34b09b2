package dev.lnp.core.http;

import dev.lnp.api.Principal;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.http.Surface;
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
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The shared steps every route goes through, in pipeline order: authenticate, module check, scope, rate limit,
 * quota; and the transaction, idempotency and audit services around the handler. The MCP plugin uses the same
 * object for its own surface, so limits and audit are one implementation.
 */
public final class PipelineServices {

    /** The caller, the connection's settings, and the rate-limit verdict for the response headers. */
    public record Caller(Principal principal, KeyRecord key, RateLimiter.Verdict rate) {
    }

    private final Authenticator authenticator;
    private final WorkspaceTransactions transactions;
    private final RateLimiter rateLimiter;
    private final QuotaCounter quotas;
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
    private final dev.lnp.core.db.DatabaseOutage outage;

    public PipelineServices(Authenticator authenticator, WorkspaceTransactions transactions, RateLimiter rateLimiter,
            QuotaCounter quotas, QuotaLimits quotaLimits, IdempotencyStore idempotency, AuditLog audit,
            PlatformConfig config, PlatformMetrics metrics, dev.lnp.core.db.DatabaseOutage outage) {
        this.metrics = metrics;
        this.outage = outage;
        this.authenticator = authenticator;
        this.transactions = transactions;
        this.rateLimiter = rateLimiter;
        this.quotas = quotas;
        this.idempotency = idempotency;
        this.audit = audit;
        this.maxBodyBytes = config.maxBodyBytes();
        this.restPerMinute = config.getInt("lnp.limits.rest_per_minute", 600);
        this.mcpPerMinute = config.getInt("lnp.limits.mcp_per_minute", 120);
        this.quotaLimits = quotaLimits;
        this.allowedOrigins = AllowedOrigins.from(config);
    }

    dev.lnp.core.db.DatabaseOutage outage() {
        return outage;
    }

    /** 403 for an {@code Origin} header that is present and not one this deployment serves (MCP surface). */
    void checkOrigin(ServerRequest req) {
        allowedOrigins.check(req.headers().all(HeaderNames.ORIGIN, List::of));
    }

    /** 401 for a bad key; 404 when the plugin is switched off for the workspace; 403 for a missing scope; 429. */
    Caller admit(ServerRequest req, RouteSpec route, Surface surface, String pluginId) {
        Caller caller = authenticate(req.headers().all(HeaderNames.AUTHORIZATION, List::of), surface.id());
        if (caller.key().disabledModules().contains(pluginId)) {
            throw Problems.routeNotFound(route.method().name(), req.path().path());
        }
        if (!caller.principal().has(route.scope())) {
            throw new ApiProblem(403, "missing_scope", "Forbidden",
                    "This key lacks the scope " + route.scope() + " that " + route.method() + " " + route.path()
                            + " needs.", List.of(), RateLimiter.headers(caller.rate()));
        }
        return caller;
    }

    /** Authentication and the per-minute limit of one surface ({@code rest} or {@code mcp}). */
    public Caller authenticate(List<String> authorizationHeaders, String surface) {
        RateLimiter.Window window = rateLimiter.window(surface);
        var authenticated = authenticator.authenticate(authorizationHeaders, window);
        KeyRecord key = authenticated.key();
        if (key.mcpOnly() && !"mcp".equals(surface)) {
            throw new ApiProblem(403, "key_not_valid_for_rest", "Forbidden", "This key works on the MCP surface "
                    + "only (/api/mcp); it cannot call REST routes.");
        }
        int limit = "mcp".equals(surface)
                ? (key.mcpPerMinute() != null ? key.mcpPerMinute() : mcpPerMinute)
                : (key.restPerMinute() != null ? key.restPerMinute() : restPerMinute);
        RateLimiter.Verdict verdict;
        try {
            verdict = rateLimiter.verdict(window, authenticated.hits(), limit);
        } catch (ApiProblem refused) {
            metrics.refused("rate_limit", surface);
            throw refused;
        }
        return new Caller(authenticated.principal(), key, verdict);
    }

    /** Takes one unit of the route's monthly quota, or answers 429. */
    public void takeQuota(Caller caller, String counter) {
        try {
            quotas.take(caller.principal().workspaceId(), counter, quotaLimit(caller, counter));
        } catch (ApiProblem refused) {
            metrics.refused("quota", counter);
            throw refused;
        }
    }

    public PlatformMetrics metrics() {
        return metrics;
    }

    public void giveBackQuota(Caller caller, String counter) {
        quotas.giveBack(caller.principal().workspaceId(), counter);
    }

    private long quotaLimit(Caller caller, String counter) {
        return quotaLimits.limit(counter, caller.key().workspaceQuotas());
    }

    public WorkspaceTransactions transactions() {
        return transactions;
    }

    IdempotencyStore idempotency() {
        return idempotency;
    }

    long maxBodyBytes() {
        return maxBodyBytes;
    }

    /** The audit row (for authenticated callers) and the request's {@code http_server_requests_seconds} sample. */
    public void audit(Caller caller, String surface, String method, String route, String requestId, int status,
            long nanos) {
        metrics.request(method, route, status, nanos);
        if (caller != null) {
            audit.record(new AuditLog.Entry(Instant.now(), requestId, caller.principal().workspaceId(),
                    caller.principal().connectionId(), surface, method, route, status, nanos / 1_000_000.0));
        }
    }

    static Map<String, String> rateHeaders(Caller caller) {
        return caller == null ? Map.of() : RateLimiter.headers(caller.rate());
    }

    public Limits limits() {
        return new Limits(restPerMinute, mcpPerMinute, quotaLimits);
    }
}
