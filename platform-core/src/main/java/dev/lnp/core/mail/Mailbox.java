package dev.lnp.core.mail;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * The deployment's outgoing mail as operators read it ({@code platform mail list|show}, the console's mailbox
 * page): the local mailbox when no SMTP server is configured, and the state of every message sent over SMTP.
 * Read-only, across workspaces; callers must only offer it to operators of the deployment.
 */
public final class Mailbox {

    /** Newest first; at most this many per page. */
    public static final int MAX_LIMIT = 500;

    /** One line of the list. state is pending, sent, failed or local. */
    public record Summary(UUID id, UUID workspaceId, String kind, String to, String subject, String state,
            int attempts, Instant createdAt, Instant completedAt, String lastError) {}

    /** One message in full. text and html are null once SMTP accepted the message (they are not kept). */
    public record Message(Summary summary, String from, String messageId, String text, String html) {}

    /**
     * @param to only mail to this address (case-insensitive), or null
     * @param workspaceId only this workspace's mail, or null
     * @param limit 1 to {@link #MAX_LIMIT}
     */
    public record Query(String to, UUID workspaceId, int limit) {
        public Query {
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", not " + limit);
            }
        }

        public static Query all() {
            return new Query(null, null, 50);
        }
    }

    private static final String COLUMNS = """
            id, workspace_id, kind, recipient, subject, state, attempts, created_at, completed_at, last_error
            """;

    private final Jdbi jdbi;

    public Mailbox(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    public List<Summary> list(Query query) {
        return jdbi.withHandle(h -> h.createQuery("SELECT " + COLUMNS + """
                         FROM lnp_core.mail_messages
                        WHERE (CAST(:to AS text) IS NULL OR lower(recipient) = lower(CAST(:to AS text)))
                          AND (CAST(:workspace AS uuid) IS NULL OR workspace_id = CAST(:workspace AS uuid))
                        ORDER BY seq DESC
                        LIMIT :limit
                        """)
                .bind("to", query.to())
                .bindByType("workspace", query.workspaceId(), UUID.class)
                .bind("limit", query.limit())
                .map((rs, ctx) -> summary(rs))
                .list());
    }

    public Optional<Message> show(UUID id) {
        return jdbi.withHandle(h -> h.createQuery("SELECT " + COLUMNS + """
                        , sender, message_id, body_text, body_html
                         FROM lnp_core.mail_messages WHERE id = :id
                        """)
                .bind("id", id)
                .map((rs, ctx) -> new Message(summary(rs), rs.getString("sender"), rs.getString("message_id"),
                        rs.getString("body_text"), rs.getString("body_html")))
                .findOne());
    }

    private static Summary summary(ResultSet rs) throws SQLException {
        return new Summary(rs.getObject("id", UUID.class), rs.getObject("workspace_id", UUID.class),
                rs.getString("kind"), rs.getString("recipient"), rs.getString("subject"), rs.getString("state"),
                rs.getInt("attempts"), instant(rs, "created_at"), instant(rs, "completed_at"),
                rs.getString("last_error"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        var value = rs.getObject(column, java.time.OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
