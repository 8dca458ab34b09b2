package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * The SQL of hand-offs: a conversation's state (waiting for a person, taken by one, closed) and the chat inbox's
 * reads. Every change is conditional on the state it starts from, so two members acting at once do not undo each
 * other (the second close changes nothing, a take-over of a closed conversation is refused).
 */
final class HandoffRepository {

    static final List<String> OPEN = List.of("waiting", "taken");

    /** A handed-off conversation as the inbox shows it. */
    record Handoff(UUID id, UUID widgetId, String widgetName, String state, String reason, UUID ticketId,
            String pageUrl, Instant startedAt, Instant handedOffAt, UUID takenBy, String takenByEmail,
            Instant lastVisitorAt, Instant closedAt, String visitorEmail, String verifiedEmail, String verifiedName) {

        boolean open() {
            return state != null && OPEN.contains(state);
        }
    }

    private static final String COLUMNS = "s.id, s.widget_id, w.name AS widget_name, s.handoff_state, s.handoff_reason, "
            + "s.ticket_id, s.page_url, s.created_at, s.handed_off_at, s.taken_by, s.taken_by_email, s.last_visitor_at, "
            + "s.closed_at, s.visitor_email, s.verified_email, s.verified_name FROM chatbot.sessions s JOIN chatbot.widgets w ON w.id = s.widget_id "
            + "AND w.workspace_id = s.workspace_id";

    /** Opens (or opens again after a close) the hand-off of a conversation, waiting for a person. */
    void open(Handle h, UUID workspaceId, UUID sessionId, String reason, UUID ticketId) {
        h.createUpdate("UPDATE chatbot.sessions SET handoff_state = 'waiting', handoff_reason = :reason, "
                        + "handed_off_at = now(), ticket_id = CAST(:ticket AS uuid), taken_by = NULL, taken_by_email = NULL, "
                        + "closed_at = NULL, last_visitor_at = now() WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", sessionId).bind("reason", reason).bind("ticket", ticketId)
                .execute();
    }

    /** A member takes an open conversation over (from whoever had it); false when it is not open. */
    boolean take(Handle h, UUID workspaceId, UUID sessionId, UUID userId, String email) {
        return h.createUpdate("UPDATE chatbot.sessions SET handoff_state = 'taken', taken_by = :user, "
                        + "taken_by_email = :email WHERE workspace_id = :ws AND id = :id "
                        + "AND handoff_state IN ('waiting', 'taken')")
                .bind("ws", workspaceId).bind("id", sessionId).bind("user", userId).bind("email", email)
                .execute() > 0;
    }

    /** Closes an open conversation: the visitor's next message goes to the assistant again. */
    boolean close(Handle h, UUID workspaceId, UUID sessionId) {
        return h.createUpdate("UPDATE chatbot.sessions SET handoff_state = 'closed', closed_at = now() "
                        + "WHERE workspace_id = :ws AND id = :id AND handoff_state IN ('waiting', 'taken')")
                .bind("ws", workspaceId).bind("id", sessionId).execute() > 0;
    }

    void visitorWrote(Handle h, UUID workspaceId, UUID sessionId) {
        h.createUpdate("UPDATE chatbot.sessions SET last_visitor_at = now() WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", sessionId).execute();
    }

    /** Marks a visitor's message as the ticket comment that carries it, so the comment does not come back as a reply. */
    void messageIsComment(Handle h, UUID workspaceId, UUID messageId, UUID commentId) {
        h.createUpdate("UPDATE chatbot.messages SET comment_id = :comment WHERE workspace_id = :ws AND id = :id "
                        + "AND comment_id IS NULL")
                .bind("ws", workspaceId).bind("id", messageId).bind("comment", commentId).execute();
    }

    Optional<Handoff> find(Handle h, UUID workspaceId, UUID sessionId) {
        return h.createQuery("SELECT " + COLUMNS + " WHERE s.workspace_id = :ws AND s.id = :id "
                        + "AND s.handoff_state IS NOT NULL")
                .bind("ws", workspaceId).bind("id", sessionId).map((rs, ctx) -> handoff(rs)).findOne();
    }

    /**
     * A conversation as its page in the inbox shows it: one handed over to a person, or a known visitor's (linked
     * from their CRM contact) also while the assistant has it.
     */
    Optional<Handoff> findShown(Handle h, UUID workspaceId, UUID sessionId) {
        return h.createQuery("SELECT " + COLUMNS + " WHERE s.workspace_id = :ws AND s.id = :id "
                        + "AND (s.handoff_state IS NOT NULL OR s.visitor_user_id IS NOT NULL)")
                .bind("ws", workspaceId).bind("id", sessionId).map((rs, ctx) -> handoff(rs)).findOne();
    }

    /**
     * The conversations in these states: the open ones first, the longest waiting on top, then the closed ones, the
     * last closed on top; one row more than the page to tell whether another page follows.
     */
    List<Handoff> list(Handle h, UUID workspaceId, List<String> states, int limit, int offset) {
        return h.createQuery("SELECT " + COLUMNS + " WHERE s.workspace_id = :ws AND s.handoff_state = ANY(:states) "
                        + "ORDER BY s.handoff_state = 'closed', CASE WHEN s.handoff_state = 'closed' "
                        + "THEN -extract(epoch FROM s.closed_at) ELSE extract(epoch FROM s.handed_off_at) END, s.id "
                        + "LIMIT :limit OFFSET :offset")
                .bind("ws", workspaceId).bind("states", states.toArray(String[]::new)).bind("limit", limit + 1)
                .bind("offset", offset).map((rs, ctx) -> handoff(rs)).list();
    }

    private static Handoff handoff(ResultSet rs) throws SQLException {
        return new Handoff(rs.getObject("id", UUID.class), rs.getObject("widget_id", UUID.class),
                rs.getString("widget_name"), rs.getString("handoff_state"), rs.getString("handoff_reason"),
                rs.getObject("ticket_id", UUID.class), rs.getString("page_url"), instant(rs, "created_at"),
                instant(rs, "handed_off_at"), rs.getObject("taken_by", UUID.class), rs.getString("taken_by_email"),
                instant(rs, "last_visitor_at"), instant(rs, "closed_at"), rs.getString("visitor_email"),
                rs.getString("verified_email"), rs.getString("verified_name"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        var t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    /** The outbox payload of a hand-off event. */
    static ObjectNode payload(UUID sessionId, UUID widgetId, String state, UUID ticketId) {
        ObjectNode o = Json.object().put("session_id", sessionId.toString()).put("widget_id", widgetId.toString())
                .put("state", state);
        if (ticketId == null) {
            o.putNull("ticket_id");
        } else {
            o.put("ticket_id", ticketId.toString());
        }
        return o;
    }
}
