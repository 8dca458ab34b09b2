package dev.lnp.plugins.trials;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** All SQL of the trials plugin. Every method runs in a transaction that belongs to no workspace. */
final class TrialRepository {

    /** One trial request as stored. */
    record TrialRequest(UUID id, String state, String ownerEmail, String workspaceName, String agentName,
            String agentVendor, String agentVersion, String purpose, String bindingCode, byte[] approvalHash,
            Instant createdAt, Instant expiresAt, Instant decidedAt, String reason, Instant nextPollAt,
            UUID trialWorkspaceId, UUID connectionId, Instant keyDeliveredAt, Instant keyExpiresAt,
            Instant trialEndsAt) {

        boolean terminal() {
            return !"pending".equals(state) && !"approved".equals(state);
        }
    }

    record NewRequest(UUID id, String ownerEmail, String workspaceName, String agentName, String agentVendor,
            String agentVersion, String purpose, String bindingCode, byte[] tokenHash, byte[] approvalHash,
            UUID challengeId, String clientAddress, Instant createdAt, Instant expiresAt) {
    }

    private static final String COLUMNS = """
            id, state, owner_email, workspace_name, agent_name, agent_vendor, agent_version, purpose, binding_code,
            approval_hash, created_at, expires_at, decided_at, reason, next_poll_at, trial_workspace_id,
            connection_id, key_delivered_at, key_expires_at, trial_ends_at""";

    byte[] secret(Handle h, String name, byte[] candidate) {
        h.createUpdate("INSERT INTO trials.secrets (name, value) VALUES (:name, :value) ON CONFLICT (name) DO NOTHING")
                .bind("name", name).bind("value", candidate).execute();
        return h.createQuery("SELECT value FROM trials.secrets WHERE name = :name").bind("name", name)
                .mapTo(byte[].class).one();
    }

    /** Records the challenge as spent; false when it already was (a replay). */
    boolean spendChallenge(Handle h, UUID id, Instant now, Instant expiresAt) {
        return h.createUpdate("""
                        INSERT INTO trials.spent_challenges (id, spent_at, expires_at) VALUES (:id, :now, :expires)
                        ON CONFLICT (id) DO NOTHING
                        """)
                .bind("id", id).bind("now", now).bind("expires", expiresAt).execute() == 1;
    }

    /** Counts one hit for the subject in its window and returns the window's count, this hit included. */
    int hit(Handle h, String subject, Instant windowStart) {
        return h.createQuery("""
                        INSERT INTO trials.limit_windows AS w (subject, window_start, hits) VALUES (:subject, :start, 1)
                        ON CONFLICT (subject, window_start) DO UPDATE SET hits = w.hits + 1
                        RETURNING hits
                        """)
                .bind("subject", subject).bind("start", windowStart).mapTo(Integer.class).one();
    }

    int pendingFor(Handle h, String ownerEmailKey, Instant now) {
        return h.createQuery("""
                        SELECT count(*) FROM trials.requests
                         WHERE owner_email_key = :owner AND state = 'pending' AND expires_at > :now
                        """)
                .bind("owner", ownerEmailKey).bind("now", now).mapTo(Integer.class).one();
    }

    void insert(Handle h, NewRequest r) {
        h.createUpdate("""
                        INSERT INTO trials.requests (id, state, owner_email, owner_email_key, workspace_name, agent_name,
                                              agent_vendor, agent_version, purpose, binding_code, token_hash,
                                              approval_hash, challenge_id, client_address, created_at, expires_at,
                                              next_poll_at)
                        VALUES (:id, 'pending', :email, lower(:email), :ws, :agentName, :agentVendor, :agentVersion,
                                :purpose, :binding, :token, :approval, :challenge, :client, :created, :expires,
                                :created)
                        """)
                .bind("id", r.id()).bind("email", r.ownerEmail()).bind("ws", r.workspaceName())
                .bind("agentName", r.agentName()).bind("agentVendor", r.agentVendor())
                .bind("agentVersion", r.agentVersion()).bind("purpose", r.purpose()).bind("binding", r.bindingCode())
                .bind("token", r.tokenHash()).bind("approval", r.approvalHash()).bind("challenge", r.challengeId())
                .bind("client", r.clientAddress()).bind("created", r.createdAt()).bind("expires", r.expiresAt())
                .execute();
    }

    Optional<TrialRequest> byTokenForUpdate(Handle h, byte[] tokenHash) {
        return h.createQuery("SELECT " + COLUMNS + " FROM trials.requests WHERE token_hash = :hash FOR UPDATE")
                .bind("hash", tokenHash).map((rs, ctx) -> row(rs)).findOne();
    }

    Optional<TrialRequest> byId(Handle h, UUID id, boolean forUpdate) {
        return h.createQuery("SELECT " + COLUMNS + " FROM trials.requests WHERE id = :id" + (forUpdate ? " FOR UPDATE" : ""))
                .bind("id", id).map((rs, ctx) -> row(rs)).findOne();
    }

    List<TrialRequest> ofWorkspace(Handle h, UUID workspaceId) {
        return h.createQuery("SELECT " + COLUMNS + " FROM trials.requests WHERE trial_workspace_id = :ws "
                        + "ORDER BY created_at DESC")
                .bind("ws", workspaceId).map((rs, ctx) -> row(rs)).list();
    }

    void polled(Handle h, UUID id, Instant now, Instant next) {
        h.createUpdate("UPDATE trials.requests SET last_poll_at = :now, next_poll_at = :next, polls = polls + 1 WHERE id = :id")
                .bind("id", id).bind("now", now).bind("next", next).execute();
    }

    void finish(Handle h, UUID id, String state, String reason, Instant now) {
        h.createUpdate("UPDATE trials.requests SET state = :state, reason = :reason, decided_at = COALESCE(decided_at, :now) "
                        + "WHERE id = :id")
                .bind("id", id).bind("state", state).bind("reason", reason).bind("now", now).execute();
    }

    /** Only one approval runs per request: the one that sets approving_since. */
    boolean claimApproval(Handle h, UUID id, Instant now) {
        return h.createUpdate("""
                        UPDATE trials.requests SET approving_since = :now
                         WHERE id = :id AND state = 'pending' AND approving_since IS NULL AND expires_at > :now
                        """)
                .bind("id", id).bind("now", now).execute() == 1;
    }

    boolean approved(Handle h, UUID id, UUID workspaceId, Instant now, Instant trialEndsAt) {
        return h.createUpdate("""
                        UPDATE trials.requests SET state = 'approved', decided_at = :now, trial_workspace_id = :ws,
                                            trial_ends_at = :ends
                         WHERE id = :id AND state = 'pending'
                        """)
                .bind("id", id).bind("ws", workspaceId).bind("now", now).bind("ends", trialEndsAt).execute() == 1;
    }

    /** The status request that sets key_delivered_at is the one that issues (and shows) the key. */
    void claimKey(Handle h, UUID id, Instant now) {
        h.createUpdate("UPDATE trials.requests SET key_delivered_at = :now WHERE id = :id")
                .bind("id", id).bind("now", now).execute();
    }

    Void unclaimKey(Handle h, UUID id) {
        h.createUpdate("UPDATE trials.requests SET key_delivered_at = NULL WHERE id = :id AND connection_id IS NULL")
                .bind("id", id).execute();
        return null;
    }

    /** Records the issued key, unless the trial stopped meanwhile (then the caller revokes it). */
    boolean keyDelivered(Handle h, UUID id, UUID connectionId, Instant now, Instant keyExpiresAt) {
        return h.createUpdate("""
                        UPDATE trials.requests SET connection_id = :connection, key_delivered_at = :now,
                                            key_expires_at = :expires, trial_ends_at = :expires
                         WHERE id = :id AND state = 'approved'
                        """)
                .bind("id", id).bind("connection", connectionId).bind("now", now).bind("expires", keyExpiresAt)
                .execute() == 1;
    }

    boolean finishIf(Handle h, UUID id, String from, String state, String reason, Instant now) {
        return h.createUpdate("UPDATE trials.requests SET state = :state, reason = :reason, decided_at = :now "
                        + "WHERE id = :id AND state = :from")
                .bind("id", id).bind("from", from).bind("state", state).bind("reason", reason).bind("now", now)
                .execute() == 1;
    }

    int expirePending(Handle h, Instant now) {
        return h.createUpdate("""
                        UPDATE trials.requests SET state = 'expired', reason = 'approval_window_passed', decided_at = :now
                         WHERE state = 'pending' AND expires_at <= :now
                        """)
                .bind("now", now).execute();
    }

    List<TrialRequest> endedTrials(Handle h, Instant now) {
        return h.createQuery("SELECT " + COLUMNS + " FROM trials.requests WHERE state = 'approved' AND trial_ends_at <= :now "
                        + "ORDER BY trial_ends_at LIMIT 100 FOR UPDATE SKIP LOCKED")
                .bind("now", now).map((rs, ctx) -> row(rs)).list();
    }

    void purge(Handle h, Instant now) {
        h.createUpdate("DELETE FROM trials.spent_challenges WHERE expires_at < :cutoff")
                .bind("cutoff", now.minus(java.time.Duration.ofDays(1))).execute();
        h.createUpdate("DELETE FROM trials.limit_windows WHERE window_start < :cutoff")
                .bind("cutoff", now.minus(java.time.Duration.ofDays(2))).execute();
    }

    private static TrialRequest row(ResultSet rs) throws SQLException {
        return new TrialRequest(rs.getObject("id", UUID.class), rs.getString("state"), rs.getString("owner_email"),
                rs.getString("workspace_name"), rs.getString("agent_name"), rs.getString("agent_vendor"),
                rs.getString("agent_version"), rs.getString("purpose"), rs.getString("binding_code"),
                rs.getBytes("approval_hash"), ts(rs, "created_at"), ts(rs, "expires_at"), ts(rs, "decided_at"),
                rs.getString("reason"), ts(rs, "next_poll_at"), rs.getObject("trial_workspace_id", UUID.class),
                rs.getObject("connection_id", UUID.class), ts(rs, "key_delivered_at"), ts(rs, "key_expires_at"),
                ts(rs, "trial_ends_at"));
    }

    private static Instant ts(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
