package dev.lnp.core.auth;

import dev.lnp.core.db.AdmissionCheck;
import dev.lnp.database.opening.AdmissionVersionCheck;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.lnp.api.Json;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import dev.lnp.core.limits.QuotaCharge;
import dev.lnp.core.limits.RateLimiter;
import org.jdbi.v3.core.Jdbi;

/** SQL for keys and connections. */
public final class KeyRepository {

    private final Jdbi jdbi;

    public KeyRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /**
     * What a key's admission depends on: the key, its connection, workspace, the workspace's quotas and the
     * delegated user's role, looked up by {@code :hash}. Everything but the connection's tool-call count, which
     * each call changes and the budget step takes in a statement of its own.
     */
    private static final String ADMITTED = """
            SELECT k.id AS key_id, k.legacy, k.valid_until, k.revoked_at AS key_revoked_at,
                   c.id AS connection_id, c.workspace_id, c.identity_id, c.scopes, c.preset,
                   c.expires_at, c.revoked_at AS connection_revoked_at, c.delegation_enabled,
                   c.delegated_user_id, u.role AS delegated_role, c.tool_allow, c.tool_deny,
                   c.read_only_tools, c.rest_per_minute, c.mcp_per_minute,
                   c.mcp_only, c.tool_call_budget,
                   w.disabled_modules,
                   (SELECT jsonb_object_agg(q.quota, q.monthly) FROM lnp_core.workspace_quotas q
                     WHERE q.workspace_id = w.id)::text AS workspace_quotas
              FROM lnp_core.api_keys k
              JOIN lnp_core.connections c ON c.id = k.connection_id
              JOIN lnp_core.workspaces w ON w.id = c.workspace_id
              LEFT JOIN lnp_core.users u ON u.id = c.delegated_user_id
             WHERE k.key_hash = :hash""";

    /**
     * A scalar SQL expression: the admission version of the workspace bound as {@code :workspace}. Every change to a
     * row of {@link #ADMITTED}'s tables adds one to its workspace's version in the changing transaction (core
     * migration {@code V13_34__compatible_admission_versions}), so while it equals {@link Admission#version} nothing
     * that admission is made of has changed. A workspace transaction's first statement compares it with a cached
     * admission's ({@link AdmissionCheck}), so a revocation or a change of scopes takes effect at once on every
     * node. One primary-key read, where the md5 of the joined rows it replaced took 6-7 % of a page-1 read's
     * transaction.
     */
    public static final String ADMISSION_VERSION = AdmissionVersionCheck.VERSION;

    /** {@link #admit}'s statement. */
    private static final String ADMIT = """
        WITH found AS (
            SELECT admitted.*, COALESCE(v.version, 0) AS admission_version, c.tool_calls_used
              FROM ({admitted}) admitted
              JOIN lnp_core.connections c ON c.id = admitted.connection_id
              LEFT JOIN lnp_core.admission_versions v ON v.workspace_id = admitted.workspace_id),
        live AS (
            SELECT key_id, connection_id, workspace_id FROM found
             WHERE :touch AND key_revoked_at IS NULL AND connection_revoked_at IS NULL
               AND (valid_until IS NULL OR valid_until > :now)
               AND (expires_at IS NULL OR expires_at > :now)
               AND (NOT legacy OR :legacy_accepted)),
        touched AS (
            UPDATE lnp_core.api_keys SET last_used_at = now()
             WHERE id IN (SELECT key_id FROM live)
               AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')),
        counted AS (
            INSERT INTO lnp_core.rate_windows AS r (connection_id, bucket, window_start, hits)
            SELECT connection_id, :bucket, :window, :chunk
              FROM live, (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
             WHERE :chunk > 0
            ON CONFLICT (connection_id, bucket, window_start) DO UPDATE SET hits = r.hits + :chunk
            RETURNING hits),
        quota_limit AS (
            SELECT workspace_id,
                   COALESCE((SELECT o.monthly FROM lnp_core.workspace_quotas o
                              WHERE o.workspace_id = live.workspace_id AND o.quota = :quota),
                            :deployment_limit) AS monthly
              FROM live
             WHERE :charge),
        quota_taken AS (
            INSERT INTO lnp_core.quota_usage AS q (workspace_id, counter, month, used, last_grant)
            SELECT workspace_id, :quota, :month, least(:units, monthly), least(:units, monthly)
              FROM quota_limit, (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
             WHERE monthly > 0
            ON CONFLICT (workspace_id, counter, month) DO UPDATE
               SET used = q.used + least(:units, (SELECT monthly FROM quota_limit) - q.used),
                   last_grant = least(:units, (SELECT monthly FROM quota_limit) - q.used)
             WHERE q.used < (SELECT monthly FROM quota_limit)
            RETURNING last_grant)
        SELECT found.*, (SELECT hits FROM counted) AS hits,
               COALESCE((SELECT last_grant FROM quota_taken), 0) AS quota_granted
          FROM found
        """.replace("{admitted}", ADMITTED);

    /**
     * A key, the window's total after this statement's reservation (null: nothing reserved), whether the
     * statement took the unit of quota it was asked to take, and the workspace's admission version read with it (see
     * {@link #ADMISSION_VERSION}).
     */
    public record Admission(KeyRecord key, Integer hits, int quotaGranted, long version) {

        /** Whether the statement took at least the request's own unit of quota. */
        public boolean quotaTaken() {
            return quotaGranted > 0;
        }
    }

    /** {@link #admit(byte[], Instant, boolean, RateLimiter.Window, int, QuotaCharge)} counting this one request. */
    public Optional<Admission> admit(byte[] hash, Instant now, boolean legacyAccepted, RateLimiter.Window window) {
        return admit(hash, now, legacyAccepted, window, 1, null, 1);
    }

    /** {@link #admit(byte[], Instant, boolean, RateLimiter.Window, int, QuotaCharge, int)} taking one unit. */
    public Optional<Admission> admit(byte[] hash, Instant now, boolean legacyAccepted, RateLimiter.Window window,
            int chunk, QuotaCharge charge) {
        return admit(hash, now, legacyAccepted, window, chunk, charge, 1);
    }

    /**
     * Finds the key by its hash and, when {@code window} is given and the key is live at {@code now}, records its
     * use (at most once a minute, for the activity history) and reserves {@code chunk} positions in the
     * connection's window ({@code hits = hits + chunk}, see {@link dev.lnp.core.limits.RateLeases}): one statement,
     * so authentication and a reservation cost one round trip. With a {@code chunk} of 0 it records the use but
     * writes nothing to the window (the node's lease covers the request); without a window it only looks the key
     * up.
     *
     * <p>"Live" repeats the checks of {@link Authenticator}, which stay authoritative for the answer; here they
     * only keep refused requests (a revoked key, an old secret after its grace period) from using the
     * connection's budget. The reservation commits asynchronously ({@code synchronous_commit = off} for its own
     * transaction): every reservation of a connection updates the same window row, and with a synchronous commit
     * the row stayed locked until the WAL flush, so the connection's concurrent reservations queued one flush each.
     * A crash can lose the last fraction of a second of counts: a key may then get a few more requests that minute.
     *
     * <p>With a {@code charge}, it also takes up to {@code units} units of a monthly quota for a live key (with a
     * window, as above), with the rules of {@link dev.lnp.core.limits.QuotaCounter#take}: the workspace's own
     * limit, else {@code charge}'s deployment limit; no unit past the limit or at a limit of 0. Near the limit it
     * takes what is left; how many it took is {@link Admission#quotaGranted} (kept in the row's {@code last_grant},
     * since {@code RETURNING} sees only the new row): one for the request, the rest for the node's
     * {@link dev.lnp.core.limits.QuotaReserve}.
     * A route's write so costs one round trip and one connection before its transaction instead of two. Whether the
     * unit was taken is {@link Admission#quotaTaken}; the caller gives it back when the request is refused or fails.
     * The quota row's update commits asynchronously like the window's, for the same reason (all writes of a
     * workspace update one row), with its own {@code set_config} since the window's runs only when it reserves.
     */
    public Optional<Admission> admit(byte[] hash, Instant now, boolean legacyAccepted, RateLimiter.Window window,
            int chunk, QuotaCharge charge, int units) {
        if (chunk < 0) {
            throw new IllegalArgumentException("A reservation cannot take " + chunk + " positions");
        }
        if (units < 1) {
            throw new IllegalArgumentException("A charge takes at least one unit, not " + units);
        }
        return jdbi.withHandle(h -> h.createQuery(ADMIT)
                .bind("hash", hash)
                .bind("touch", window != null)
                .bind("now", now)
                .bind("legacy_accepted", legacyAccepted)
                .bind("bucket", window == null ? "" : window.bucket())
                .bind("window", window == null ? now : window.start())
                .bind("chunk", window == null ? 0 : chunk)
                .bind("charge", charge != null)
                .bind("quota", charge == null ? "" : charge.quota())
                .bind("month", charge == null ? LocalDate.EPOCH : charge.month())
                .bind("deployment_limit", charge == null ? 0L : charge.deploymentLimit())
                .bind("units", (long) units)
                .map((rs, ctx) -> new Admission(new KeyRecord(
                                rs.getObject("key_id", UUID.class),
                                rs.getBoolean("legacy"),
                                instant(rs.getTimestamp("valid_until")),
                                instant(rs.getTimestamp("key_revoked_at")),
                                rs.getObject("connection_id", UUID.class),
                                rs.getObject("workspace_id", UUID.class),
                                rs.getObject("identity_id", UUID.class),
                                strings(rs.getArray("scopes")),
                                rs.getString("preset"),
                                instant(rs.getTimestamp("expires_at")),
                                instant(rs.getTimestamp("connection_revoked_at")),
                                rs.getBoolean("delegation_enabled"),
                                rs.getObject("delegated_user_id", UUID.class),
                                rs.getString("delegated_role"),
                                rs.getArray("tool_allow") == null ? null : strings(rs.getArray("tool_allow")),
                                strings(rs.getArray("tool_deny")),
                                rs.getBoolean("read_only_tools"),
                                (Integer) rs.getObject("rest_per_minute"),
                                (Integer) rs.getObject("mcp_per_minute"),
                                quotas(rs.getString("workspace_quotas")),
                                strings(rs.getArray("disabled_modules")),
                                rs.getBoolean("mcp_only"),
                                (Integer) rs.getObject("tool_call_budget"),
                                rs.getInt("tool_calls_used")),
                        (Integer) rs.getObject("hits"), rs.getInt("quota_granted"),
                        rs.getLong("admission_version")))
                .findOne());
    }

    /** The workspace's admission version now ({@link #ADMISSION_VERSION}). */
    public long admissionVersion(UUID workspaceId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT " + ADMISSION_VERSION).bind("workspace", workspaceId)
                .mapTo(Long.class).one());
    }

    /**
     * Takes one call from the connection's tool-call budget: one conditional UPDATE, so concurrent calls on any
     * node cannot overdraw it. Returns the calls left after this one, or empty when the budget is used up (or the
     * connection has none: callers only ask for connections with a budget).
     */
    public Optional<Integer> takeToolCall(UUID connectionId) {
        return jdbi.withHandle(h -> h.createQuery("""
                        UPDATE lnp_core.connections SET tool_calls_used = tool_calls_used + 1
                         WHERE id = :id AND tool_call_budget IS NOT NULL AND tool_calls_used < tool_call_budget
                        RETURNING tool_call_budget - tool_calls_used
                        """)
                .bind("id", connectionId).mapTo(Integer.class).findOne());
    }

    private static final TypeReference<Map<String, Long>> QUOTAS = new TypeReference<>() {
    };

    private static Map<String, Long> quotas(String json) {
        if (json == null) {
            return Map.of();
        }
        try {
            return Map.copyOf(Json.mapper().readValue(json, QUOTAS));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("Unreadable workspace quotas: " + json, e);
        }
    }

    private static Instant instant(java.sql.Timestamp ts) {
        return ts == null ? null : ts.toInstant();
    }

    private static List<String> strings(java.sql.Array array) throws java.sql.SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
