package dev.lnp.mail;

import dev.lnp.api.mail.OutgoingMail;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The outbox of outgoing mail ({@code lnp_core.mail_messages}): writing a message, and the sender's claims and
 * outcomes. A claim is a lease in the row taken with {@code FOR UPDATE SKIP LOCKED}, so several nodes share the
 * work and a dead node's messages are claimed again when the lease ends.
 */
final class MailQueue {

    /** A message claimed for one attempt. */
    record Claimed(UUID id, UUID workspaceId, String kind, String to, String from, String subject, String text,
            String html, String messageId, int attempts) {}

    private final Jdbi jdbi;

    MailQueue(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    Jdbi jdbi() {
        return jdbi;
    }

    /** Writes one checked message through {@code handle}; {@code state} is 'pending' or 'local'. */
    static void insert(Handle handle, UUID id, OutgoingMail mail, String from, String messageId, String state,
            Instant now) {
        handle.createUpdate("""
                        INSERT INTO lnp_core.mail_messages (id, workspace_id, kind, recipient, sender, subject,
                            body_text, body_html, message_id, state, next_attempt_at, created_at, completed_at)
                        VALUES (:id, CAST(:workspace AS uuid), :kind, :to, :from, :subject, :text, :html, :messageId, :state,
                            :nextAttempt, :now, :completed)
                        """)
                .bind("id", id)
                .bindByType("workspace", mail.workspaceId(), UUID.class)
                .bind("kind", mail.kind())
                .bind("to", mail.to())
                .bind("from", from)
                .bind("subject", mail.subject())
                .bind("text", mail.text())
                .bind("html", mail.html())
                .bind("messageId", messageId)
                .bind("state", state)
                .bind("nextAttempt", "pending".equals(state) ? now : null)
                .bind("now", now)
                .bind("completed", "local".equals(state) ? now : null)
                .execute();
    }

    /**
     * Takes up to {@code limit} due messages for one attempt each. The attempt is counted now, so a node that
     * dies while sending still uses one up; the message is due again when the lease ends.
     */
    List<Claimed> claim(Instant now, int limit, String node, Instant leaseUntil) {
        return jdbi.withHandle(h -> h.createQuery("""
                        UPDATE lnp_core.mail_messages m
                        SET attempts = m.attempts + 1, lease_owner = :node, lease_until = :leaseUntil,
                            next_attempt_at = :leaseUntil
                        WHERE m.id IN (SELECT id FROM lnp_core.mail_messages
                                       WHERE state = 'pending' AND next_attempt_at <= :now
                                       ORDER BY next_attempt_at
                                       LIMIT :limit
                                       FOR UPDATE SKIP LOCKED)
                        RETURNING m.id, m.workspace_id, m.kind, m.recipient, m.sender, m.subject, m.body_text,
                            m.body_html, m.message_id, m.attempts
                        """)
                .bind("node", node)
                .bind("leaseUntil", leaseUntil)
                .bind("now", now)
                .bind("limit", limit)
                .map((rs, ctx) -> new Claimed(rs.getObject("id", UUID.class), rs.getObject("workspace_id", UUID.class),
                        rs.getString("kind"), rs.getString("recipient"), rs.getString("sender"),
                        rs.getString("subject"), rs.getString("body_text"), rs.getString("body_html"),
                        rs.getString("message_id"), rs.getInt("attempts")))
                .list());
    }

    /** The server accepted it. The bodies go: they may hold sign-in links, and the recipient has them now. */
    boolean markSent(UUID id, String node, Instant now) {
        return finish(id, node, """
                UPDATE lnp_core.mail_messages
                SET state = 'sent', completed_at = :now, body_text = NULL, body_html = NULL, last_error = NULL,
                    next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL
                WHERE id = :id AND state = 'pending' AND lease_owner = :node
                """, now, null);
    }

    boolean markFailed(UUID id, String node, Instant now, String error) {
        return finish(id, node, """
                UPDATE lnp_core.mail_messages
                SET state = 'failed', completed_at = :now, last_error = :error, next_attempt_at = NULL,
                    lease_owner = NULL, lease_until = NULL
                WHERE id = :id AND state = 'pending' AND lease_owner = :node
                """, now, error);
    }

    boolean reschedule(UUID id, String node, Instant nextAttempt, String error) {
        return finish(id, node, """
                UPDATE lnp_core.mail_messages
                SET next_attempt_at = :now, last_error = :error, lease_owner = NULL, lease_until = NULL
                WHERE id = :id AND state = 'pending' AND lease_owner = :node
                """, nextAttempt, error);
    }

    private boolean finish(UUID id, String node, String sql, Instant at, String error) {
        return jdbi.withHandle(h -> h.createUpdate(sql)
                .bind("id", id)
                .bind("node", node)
                .bind("now", at)
                .bind("error", error == null ? null : truncate(error))
                .execute()) == 1;
    }

    /** Deletes finished messages older than {@code before} (the local mailbox included). */
    int purge(Instant before) {
        return jdbi.withHandle(h -> h.createUpdate("""
                        DELETE FROM lnp_core.mail_messages WHERE state <> 'pending' AND created_at < :before
                        """)
                .bind("before", before)
                .execute());
    }

    private static String truncate(String error) {
        return error.length() <= 2_000 ? error : error.substring(0, 2_000) + "…";
    }
}
