package dev.lnp.mail;

import dev.lnp.api.internal.mail.Mailbox;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/** The {@link Mailbox}: the rows of {@code lnp_core.mail_messages}, newest first. */
public final class StoredMailbox implements Mailbox {

    private static final String COLUMNS = """
            id, workspace_id, kind, recipient, subject, state, attempts, created_at, completed_at, last_error
            """;

    private final Jdbi jdbi;

    public StoredMailbox(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
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

    @Override
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
