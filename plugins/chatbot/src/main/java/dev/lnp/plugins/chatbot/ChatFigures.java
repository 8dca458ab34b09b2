package dev.lnp.plugins.chatbot;

import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * The chat home's figures. A conversation is a session in which the visitor wrote at least once (a widget opened
 * and left is not one), counted in the week it began (Monday, UTC); it was handed to a person when a hand-off was
 * ever opened in it, and answered by the assistant alone otherwise.
 */
final class ChatFigures {

    record Week(LocalDate week, long assistantAlone, long handedOver) {
    }

    private final Handle handle;
    private final UUID workspaceId;

    ChatFigures(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    /** The sessions are a range of {@code sessions_created} (V3), each visitor message found by {@code messages_session}. */
    List<Week> perWeek(int weeks) {
        return handle.createQuery("""
                        WITH weeks AS (
                            SELECT (date_trunc('week', now() AT TIME ZONE 'UTC') - make_interval(weeks => i))::date AS week
                              FROM generate_series(0, :weeks - 1) AS i),
                        since AS (SELECT min(week)::timestamp AT TIME ZONE 'UTC' AS at FROM weeks),
                        conversations AS (
                            SELECT date_trunc('week', s.created_at AT TIME ZONE 'UTC')::date AS week,
                                   s.handed_off_at IS NOT NULL AS handed
                              FROM chatbot.sessions s, since
                             WHERE s.workspace_id = :workspace_id AND s.created_at >= since.at
                               AND EXISTS (SELECT 1 FROM chatbot.messages m
                                            WHERE m.session_id = s.id AND m.role = 'visitor'))
                        SELECT w.week, count(c.week) FILTER (WHERE NOT c.handed) AS alone,
                               count(c.week) FILTER (WHERE c.handed) AS handed
                          FROM weeks w LEFT JOIN conversations c ON c.week = w.week
                         GROUP BY w.week ORDER BY w.week
                        """)
                .bind("workspace_id", workspaceId).bind("weeks", weeks)
                .map((rs, ctx) -> new Week(rs.getObject("week", LocalDate.class), rs.getLong("alone"),
                        rs.getLong("handed")))
                .list();
    }

    /** Conversations waiting for a person now, off {@code sessions_handoff}. */
    long waiting() {
        return handle.createQuery("SELECT count(*) FROM chatbot.sessions WHERE workspace_id = :workspace_id"
                        + " AND handoff_state = 'waiting'")
                .bind("workspace_id", workspaceId).mapTo(Long.class).one();
    }
}
