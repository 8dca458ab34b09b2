package dev.lnp.core.limits;

import dev.lnp.api.http.ApiProblem;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * Monthly quotas per workspace (each declared by a plugin), separate from the per-minute limits. A unit is taken
 * before the write runs, outside the write's transaction so that concurrent writes of one workspace do not queue
 * behind each other's transactions, and given back when the write does not succeed. Months are UTC. A route's
 * unit is taken by the admission statement ({@link #charge}, {@link dev.lnp.core.auth.KeyRepository#admit}); this
 * class's own {@link #take} serves tool calls, whose quota is known only once the tool is found, and a route whose
 * admission found the quota used up (it asks again at the quota step's position, where the 429 belongs).
 *
 * <p>Both statements commit asynchronously ({@code synchronous_commit = off} for their own transaction):
 * all writes of a workspace update one row, and a synchronous commit kept it locked until the WAL flush, so
 * the workspace's writes took their quota one flush at a time. A crash can lose the last fraction of a
 * second of counts, in the workspace's favour.
 */
public final class QuotaCounter {

    private final Jdbi jdbi;
    private final Clock clock;
    private final QuotaReserve reserve;

    /** @param reserve where a unit a write did not use goes when this node holds units of the workspace */
    public QuotaCounter(Jdbi jdbi, Clock clock, QuotaReserve reserve) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.reserve = reserve;
    }

    /** What the admission statement needs to take a unit of {@code quota} this month. */
    public QuotaCharge charge(String quota, long deploymentLimit) {
        return new QuotaCharge(quota, month(), deploymentLimit);
    }

    public void take(UUID workspaceId, String counter, long limit) {
        LocalDate month = month();
        boolean taken = jdbi.withHandle(h -> h.createQuery("""
                        INSERT INTO lnp_core.quota_usage AS q (workspace_id, counter, month, used)
                        SELECT :ws, :counter, :month, 1
                          FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
                         WHERE :limit > 0
                        ON CONFLICT (workspace_id, counter, month) DO UPDATE SET used = q.used + 1
                         WHERE q.used < :limit
                        RETURNING used
                        """)
                .bind("ws", workspaceId).bind("counter", counter).bind("month", month).bind("limit", limit)
                .mapTo(Long.class).findOne().isPresent());
        if (!taken) {
            long retryAfter = secondsUntilNextMonth();
            throw new ApiProblem(429, "quota_exceeded", "Too Many Requests",
                    "The workspace has used its monthly " + counter.toUpperCase() + " quota of " + limit
                            + " writes; it resets at the start of next month (UTC).",
                    List.of(), Map.of("Retry-After", Long.toString(retryAfter)));
        }
    }

    /**
     * Gives back a unit a write did not use: to this node's {@link QuotaReserve} when it holds units of this month
     * for the workspace (the next write takes it), else to the database.
     */
    public void giveBack(UUID workspaceId, String counter) {
        if (reserve.keep(workspaceId, counter, month())) {
            return;
        }
        jdbi.useHandle(h -> h.createUpdate("""
                        UPDATE lnp_core.quota_usage SET used = used - 1
                          FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
                         WHERE workspace_id = :ws AND counter = :counter AND month = :month AND used > 0
                        """)
                .bind("ws", workspaceId).bind("counter", counter).bind("month", month()).execute());
    }

    private LocalDate month() {
        return LocalDate.now(clock.withZone(ZoneOffset.UTC)).withDayOfMonth(1);
    }

    private long secondsUntilNextMonth() {
        ZonedDateTime now = ZonedDateTime.now(clock.withZone(ZoneOffset.UTC));
        ZonedDateTime next = now.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay(ZoneOffset.UTC);
        return Math.max(1, next.toEpochSecond() - now.toEpochSecond());
    }
}
