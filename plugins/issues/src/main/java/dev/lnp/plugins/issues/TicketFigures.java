package dev.lnp.plugins.issues;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** The Support home's figures over tickets, one grouped statement each. Weeks start on Monday, in UTC. */
final class TicketFigures {

    /** Tickets opened (created) and closed (solved or closed, {@code closed_at}) in the week starting {@code week}. */
    record Week(LocalDate week, long opened, long closed) {
    }

    /**
     * The first replies to the tickets opened since a day: the median wait ({@code null} when none was answered),
     * how many were answered and how many were opened.
     */
    record FirstReplies(Duration median, long answered, long opened) {
    }

    static final List<String> OPEN_STATUSES = List.of("new", "open", "pending", "on_hold");

    private final Handle handle;
    private final UUID workspaceId;

    TicketFigures(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    /**
     * This week and the {@code weeks - 1} before it, zero where nothing happened. Opened is a range of
     * {@code tickets_workspace} (workspace, created_at), closed one of {@code tickets_closed} (V4).
     */
    List<Week> perWeek(int weeks) {
        return handle.createQuery("""
                        WITH weeks AS (
                            SELECT (date_trunc('week', now() AT TIME ZONE 'UTC') - make_interval(weeks => i))::date AS week
                              FROM generate_series(0, :weeks - 1) AS i),
                        since AS (SELECT min(week)::timestamp AT TIME ZONE 'UTC' AS at FROM weeks),
                        opened AS (
                            SELECT date_trunc('week', created_at AT TIME ZONE 'UTC')::date AS week, count(*) AS n
                              FROM issues.tickets, since
                             WHERE workspace_id = :workspace_id AND created_at >= since.at GROUP BY 1),
                        closed AS (
                            SELECT date_trunc('week', closed_at AT TIME ZONE 'UTC')::date AS week, count(*) AS n
                              FROM issues.tickets, since
                             WHERE workspace_id = :workspace_id AND closed_at >= since.at GROUP BY 1)
                        SELECT w.week, coalesce(o.n, 0) AS opened, coalesce(c.n, 0) AS closed
                          FROM weeks w LEFT JOIN opened o ON o.week = w.week LEFT JOIN closed c ON c.week = w.week
                         ORDER BY w.week
                        """)
                .bind("workspace_id", workspaceId).bind("weeks", weeks)
                .map((rs, ctx) -> new Week(rs.getObject("week", LocalDate.class), rs.getLong("opened"),
                        rs.getLong("closed")))
                .list();
    }

    /**
     * The median time from a ticket's creation to its first reply, over the tickets opened in the last
     * {@code weeks} weeks (this one included). A reply is a public comment (not an internal note) written by a
     * member ({@code author_type} {@code user}), not by an API connection or a plugin relaying the customer. Each
     * ticket keeps the moment of its first ({@code first_reply_at}, kept by a trigger as replies are added, V6), so
     * this reads {@code tickets_first_reply} alone: looking each ticket's first reply up in the comments took most of
     * the home's time with 10,000 tickets.
     */
    FirstReplies firstReplies(int weeks) {
        return handle.createQuery("""
                        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM first_reply_at - created_at))
                                   AS median_seconds,
                               count(first_reply_at) AS answered, count(*) AS opened
                          FROM issues.tickets
                         WHERE workspace_id = :workspace_id
                           AND created_at >= (date_trunc('week', now() AT TIME ZONE 'UTC')
                                                - make_interval(weeks => :weeks - 1)) AT TIME ZONE 'UTC'
                        """)
                .bind("workspace_id", workspaceId).bind("weeks", weeks)
                .map((rs, ctx) -> {
                    double seconds = rs.getDouble("median_seconds");
                    Duration median = rs.wasNull() ? null : Duration.ofSeconds(Math.round(seconds));
                    return new FirstReplies(median, rs.getLong("answered"), rs.getLong("opened"));
                })
                .one();
    }

    /** Tickets not yet solved or closed, read off {@code tickets_status}. */
    long open() {
        return handle.createQuery("SELECT count(*) FROM issues.tickets WHERE workspace_id = :workspace_id"
                        + " AND status = ANY(:statuses)")
                .bind("workspace_id", workspaceId).bindArray("statuses", String.class, OPEN_STATUSES)
                .mapTo(Long.class).one();
    }
}
