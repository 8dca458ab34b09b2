package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** All SQL of sessions, messages, stream events, runs and the public endpoints' rate counters. */
final class ChatRepository {

    /** A conversation; {@code handoffState} is {@code waiting}, {@code taken}, {@code closed} or null (never handed off). */
    record Session(UUID id, UUID workspaceId, UUID widgetId, String origin, String language, UUID ticketId,
            String handoffState, String visitorUserId, UUID contactId, Instant createdAt) {

        /** Whether the visitor's messages go to a person rather than to the assistant. */
        boolean handedOff() {
            return "waiting".equals(handoffState) || "taken".equals(handoffState);
        }
    }

    private static final String SESSION_COLUMNS = "id, workspace_id, widget_id, origin, language, ticket_id, handoff_state, "
            + "visitor_user_id, contact_id, created_at";

    private static Session session(ResultSet rs) throws SQLException {
        return new Session(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                rs.getString(4), rs.getString(5), rs.getObject(6, UUID.class), rs.getString(7), rs.getString(8),
                rs.getObject(9, UUID.class), rs.getTimestamp(10).toInstant());
    }

    Optional<Session> session(Handle h, UUID workspaceId, UUID id) {
        return h.createQuery("SELECT " + SESSION_COLUMNS + " FROM chatbot.sessions WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", id)
                .map((rs, ctx) -> session(rs))
                .findOne();
    }

    Optional<Session> sessionOfTicket(Handle h, UUID workspaceId, UUID ticketId) {
        return h.createQuery("SELECT " + SESSION_COLUMNS + " FROM chatbot.sessions "
                        + "WHERE workspace_id = :ws AND ticket_id = :ticket ORDER BY created_at LIMIT 1")
                .bind("ws", workspaceId).bind("ticket", ticketId)
                .map((rs, ctx) -> session(rs))
                .findOne();
    }

    UUID createSession(Handle h, UUID workspaceId, UUID widgetId, String origin, String pageUrl, String language) {
        return h.createQuery("INSERT INTO chatbot.sessions (workspace_id, widget_id, origin, page_url, language) "
                        + "VALUES (:ws, :widget, :origin, :url, :lang) RETURNING id")
                .bind("ws", workspaceId).bind("widget", widgetId).bind("origin", origin).bind("url", pageUrl)
                .bind("lang", language).mapTo(UUID.class).one();
    }

    void touchSession(Handle h, UUID workspaceId, UUID id, String pageUrl) {
        h.createUpdate("UPDATE chatbot.sessions SET last_seen_at = now(), page_url = COALESCE(:url, page_url) "
                        + "WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", id).bind("url", pageUrl).execute();
    }

    /** The verified visitor of a conversation (Known visitors): the site's user id, e-mail address and name. */
    void setVisitor(Handle h, UUID workspaceId, UUID id, String userId, String email, String name) {
        h.createUpdate("UPDATE chatbot.sessions SET visitor_user_id = :user, verified_email = :email, verified_name = :name "
                        + "WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", id).bind("user", userId).bind("email", email).bind("name", name)
                .execute();
    }

    /** The CRM contact a verified visitor's conversation was linked to. */
    void setContact(Handle h, UUID workspaceId, UUID id, UUID contactId) {
        h.createUpdate("UPDATE chatbot.sessions SET contact_id = :contact WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", id).bind("contact", contactId).execute();
    }

    // Messages.

    Map<String, Object> insertMessage(Handle h, UUID workspaceId, UUID id, UUID sessionId, String role, String text,
            UUID runId, JsonNode citations) {
        return h.createQuery("INSERT INTO chatbot.messages (id, workspace_id, session_id, role, text, run_id, citations) "
                        + "VALUES (:id, :ws, :session, :role, :text, CAST(:run AS uuid), CAST(:citations AS jsonb)) "
                        + "RETURNING id, role, text, created_at, run_id, citations::text")
                .bind("id", id).bind("ws", workspaceId).bind("session", sessionId).bind("role", role)
                .bind("text", text).bind("run", runId).bind("citations", citations.toString())
                .map((rs, ctx) -> message(rs)).one();
    }

    /** A reply on a hand-off ticket; empty when that comment was delivered before. */
    Optional<Map<String, Object>> insertAgentMessage(Handle h, UUID workspaceId, UUID sessionId, UUID commentId,
            String text) {
        return h.createQuery("INSERT INTO chatbot.messages (workspace_id, session_id, role, text, comment_id) "
                        + "VALUES (:ws, :session, 'human_agent', :text, CAST(:comment AS uuid)) ON CONFLICT (comment_id) DO NOTHING "
                        + "RETURNING id, role, text, created_at, run_id, citations::text")
                .bind("ws", workspaceId).bind("session", sessionId).bind("text", text).bind("comment", commentId)
                .map((rs, ctx) -> message(rs)).findOne();
    }

    List<Map<String, Object>> history(Handle h, UUID workspaceId, UUID sessionId, int limit) {
        return h.createQuery("SELECT * FROM (SELECT id, role, text, created_at, run_id, citations::text, seq "
                        + "FROM chatbot.messages WHERE workspace_id = :ws AND session_id = :session "
                        + "ORDER BY seq DESC LIMIT :limit) last ORDER BY seq")
                .bind("ws", workspaceId).bind("session", sessionId).bind("limit", limit)
                .map((rs, ctx) -> message(rs)).list();
    }

    /** The visitor's ratings of a conversation's answers: message id to {@code up} or {@code down}. */
    Map<UUID, String> ratings(Handle h, UUID workspaceId, UUID sessionId) {
        Map<UUID, String> out = new LinkedHashMap<>();
        h.createQuery("SELECT message_id, rating FROM chatbot.message_ratings WHERE workspace_id = :ws "
                        + "AND session_id = :session")
                .bind("ws", workspaceId).bind("session", sessionId)
                .map((rs, ctx) -> Map.entry(rs.getObject(1, UUID.class), rs.getInt(2) > 0 ? "up" : "down"))
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /** The role of a message of this conversation; empty for a message of another conversation or none. */
    Optional<String> roleInSession(Handle h, UUID workspaceId, UUID sessionId, UUID messageId) {
        return h.createQuery("SELECT role FROM chatbot.messages WHERE workspace_id = :ws AND session_id = :session "
                        + "AND id = :id")
                .bind("ws", workspaceId).bind("session", sessionId).bind("id", messageId)
                .mapTo(String.class).findOne();
    }

    void rateMessage(Handle h, UUID workspaceId, UUID sessionId, UUID messageId, int rating) {
        h.createUpdate("INSERT INTO chatbot.message_ratings (workspace_id, message_id, session_id, rating) "
                        + "VALUES (:ws, :id, :session, :rating) ON CONFLICT (message_id) "
                        + "DO UPDATE SET rating = EXCLUDED.rating, updated_at = now()")
                .bind("ws", workspaceId).bind("id", messageId).bind("session", sessionId).bind("rating", rating)
                .execute();
    }

    void rateSession(Handle h, UUID workspaceId, UUID sessionId, int score, String comment) {
        h.createUpdate("INSERT INTO chatbot.session_ratings (workspace_id, session_id, score, comment) "
                        + "VALUES (:ws, :session, :score, :comment) ON CONFLICT (session_id) "
                        + "DO UPDATE SET score = EXCLUDED.score, comment = EXCLUDED.comment, updated_at = now()")
                .bind("ws", workspaceId).bind("session", sessionId).bind("score", score).bind("comment", comment)
                .execute();
    }

    /** The conversation's CSAT ({@code score}, {@code comment}), or empty when the visitor has not rated it. */
    Optional<Map<String, Object>> sessionRating(Handle h, UUID workspaceId, UUID sessionId) {
        return h.createQuery("SELECT score, comment FROM chatbot.session_ratings WHERE workspace_id = :ws "
                        + "AND session_id = :session")
                .bind("ws", workspaceId).bind("session", sessionId)
                .map((rs, ctx) -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("score", rs.getInt(1));
                    m.put("comment", rs.getString(2));
                    return m;
                }).findOne();
    }

    /** The responder found nothing relevant and said it does not know: listed on the chat insights page. */
    void markUnanswered(Handle h, UUID workspaceId, UUID runId) {
        h.createUpdate("UPDATE chatbot.runs SET unanswered = true WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", runId).execute();
    }

    Optional<String> messageText(Handle h, UUID workspaceId, UUID id) {
        return h.createQuery("SELECT text FROM chatbot.messages WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", id).mapTo(String.class).findOne();
    }

    private static Map<String, Object> message(ResultSet rs) throws SQLException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", rs.getObject("id", UUID.class));
        m.put("role", rs.getString("role"));
        m.put("text", rs.getString("text"));
        m.put("created_at", rs.getTimestamp("created_at").toInstant());
        m.put("run_id", rs.getObject("run_id", UUID.class));
        m.put("citations", Json.parse(rs.getString("citations")));
        return m;
    }

    // Stream events.

    long addEvent(Handle h, UUID workspaceId, UUID sessionId, String name, Object data) {
        // The notification is sent at commit and wakes the session's streams on every node (StreamSignals).
        return h.createQuery("WITH e AS (INSERT INTO chatbot.events (workspace_id, session_id, name, data) "
                        + "VALUES (:ws, :session, :name, CAST(:data AS jsonb)) RETURNING id) "
                        + "SELECT e.id FROM e, pg_notify('" + StreamSignals.CHANNEL + "', :sessionText)")
                .bind("ws", workspaceId).bind("session", sessionId).bind("name", name)
                .bind("sessionText", sessionId.toString())
                .bind("data", Json.mapper().valueToTree(data).toString()).mapTo(Long.class).one();
    }

    record Event(long id, String name, String data) {
    }

    List<Event> eventsAfter(Handle h, UUID workspaceId, UUID sessionId, long after, int limit) {
        return h.createQuery("SELECT id, name, data::text FROM chatbot.events "
                        + "WHERE workspace_id = :ws AND session_id = :session AND id > :after ORDER BY id LIMIT :limit")
                .bind("ws", workspaceId).bind("session", sessionId).bind("after", after).bind("limit", limit)
                .map((rs, ctx) -> new Event(rs.getLong(1), rs.getString(2), rs.getString(3))).list();
    }

    // Runs.

    UUID createRun(Handle h, UUID workspaceId, UUID sessionId, UUID messageId, boolean requestHuman) {
        return h.createQuery("INSERT INTO chatbot.runs (workspace_id, session_id, message_id, request_human) "
                        + "VALUES (:ws, :session, :message, :human) RETURNING id")
                .bind("ws", workspaceId).bind("session", sessionId).bind("message", messageId)
                .bind("human", requestHuman).mapTo(UUID.class).one();
    }

    record Run(UUID id, UUID workspaceId, UUID sessionId, UUID messageId, boolean requestHuman, int attempts) {
    }

    /** Takes a run for this node: a pending one, or one whose lease expired (its node died). */
    Optional<Run> claim(Handle h, UUID workspaceId, UUID id, String node, Duration lease) {
        return h.createQuery("UPDATE chatbot.runs SET status = 'running', node = :node, attempts = attempts + 1, "
                        + "lease_until = now() + make_interval(secs => :lease), updated_at = now() "
                        + "WHERE workspace_id = :ws AND id = :id AND (status = 'pending' "
                        + "OR status = 'running' AND lease_until < now()) "
                        + "RETURNING id, workspace_id, session_id, message_id, request_human, attempts")
                .bind("ws", workspaceId).bind("id", id).bind("node", node).bind("lease", (double) lease.toMillis() / 1000)
                .map((rs, ctx) -> run(rs)).findOne();
    }

    /** Across workspaces: runs nobody holds (pending for a while, or a lease expired), locked for this sweep. */
    List<Map.Entry<UUID, UUID>> abandonedRuns(Handle h, Duration pendingFor, int limit) {
        return h.createQuery("SELECT workspace_id, id FROM chatbot.runs WHERE status = 'running' AND lease_until < now() "
                        + "OR status = 'pending' AND created_at < now() - make_interval(secs => :pending) "
                        + "ORDER BY created_at LIMIT :limit FOR UPDATE SKIP LOCKED")
                .bind("pending", (double) pendingFor.toMillis() / 1000).bind("limit", limit)
                .map((rs, ctx) -> Map.entry(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class))).list();
    }

    boolean renewLease(Handle h, UUID workspaceId, UUID id, String node, Duration lease) {
        return h.createUpdate("UPDATE chatbot.runs SET lease_until = now() + make_interval(secs => :lease) "
                        + "WHERE workspace_id = :ws AND id = :id AND node = :node AND status = 'running'")
                .bind("ws", workspaceId).bind("id", id).bind("node", node)
                .bind("lease", (double) lease.toMillis() / 1000).execute() > 0;
    }

    /** Ends a run held by this node; false when another node took it over meanwhile (its result wins). */
    boolean finish(Handle h, UUID workspaceId, UUID id, String node, String status, String code, String detail) {
        return h.createUpdate("UPDATE chatbot.runs SET status = :status, error_code = :code, error_detail = :detail, "
                        + "lease_until = NULL, updated_at = now() "
                        + "WHERE workspace_id = :ws AND id = :id AND node = :node AND status = 'running'")
                .bind("ws", workspaceId).bind("id", id).bind("node", node).bind("status", status).bind("code", code)
                .bind("detail", detail).execute() > 0;
    }

    Optional<String> runStatus(Handle h, UUID workspaceId, UUID id) {
        return h.createQuery("SELECT status FROM chatbot.runs WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", id).mapTo(String.class).findOne();
    }

    private static Run run(ResultSet rs) throws SQLException {
        return new Run(rs.getObject("id", UUID.class), rs.getObject("workspace_id", UUID.class),
                rs.getObject("session_id", UUID.class), rs.getObject("message_id", UUID.class),
                rs.getBoolean("request_human"), rs.getInt("attempts"));
    }

    // Rate counters (no workspace: written as the platform user).

    /** Counts one hit in the current minute of each bucket; returns the counts in order. */
    int hit(Handle h, String bucket, Instant windowStart) {
        return h.createQuery("INSERT INTO chatbot.rate_counters (bucket, window_start, hits) VALUES (:b, :w, 1) "
                        + "ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_counters.hits + 1 RETURNING hits")
                .bind("b", bucket).bind("w", windowStart).mapTo(Integer.class).one();
    }

    void purgeCounters(Handle h, Instant before) {
        h.createUpdate("DELETE FROM chatbot.rate_counters WHERE window_start < :before").bind("before", before).execute();
    }
}
