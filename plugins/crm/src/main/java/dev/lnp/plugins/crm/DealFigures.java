package dev.lnp.plugins.crm;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * The CRM home's figures, one grouped statement per chart. Values are summed as they are stored, whatever their
 * currency, as the pipeline board's lane totals are: the CRM converts no currencies. Dates are UTC.
 */
final class DealFigures {

    /** Open deals (open or on hold) of a stage: how many, and their value together. */
    record StageValue(String stage, long count, BigDecimal value) {
    }

    /**
     * Open deals by when they are expected to close: {@code month} is the first day of a month from this one on,
     * or {@code null} with {@code bucket} {@code earlier} (before this month), {@code later} (after the months shown)
     * or {@code none} (no expected date).
     */
    record CloseMonth(String bucket, LocalDate month, long count, BigDecimal value) {
    }

    /** Deals closed in a month, won and lost. */
    record Closed(LocalDate month, long won, long lost) {
    }

    private final Handle handle;
    private final UUID workspaceId;

    DealFigures(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    /** Read off {@code deals_status_stage_page} (workspace, status, stage, value) alone: an index-only scan. */
    List<StageValue> pipelineByStage() {
        return handle.createQuery("""
                        SELECT stage, count(*) AS n, coalesce(sum(value), 0) AS total FROM crm.deals
                         WHERE workspace_id = :workspace_id AND status IN ('open', 'on_hold')
                         GROUP BY stage
                        """)
                .bind("workspace_id", workspaceId)
                .map((rs, ctx) -> new StageValue(rs.getString("stage"), rs.getLong("n"), rs.getBigDecimal("total")))
                .list();
    }

    /**
     * In reading order: the open deals expected before this month (when there are any), this month and the
     * {@code months - 1} after it (zero when none), after those, and without a date (when there are any).
     */
    List<CloseMonth> openByCloseMonth(int months) {
        return handle.createQuery("""
                        WITH today AS (SELECT date_trunc('month', now() AT TIME ZONE 'UTC')::date AS first),
                        open AS (
                            SELECT CASE WHEN d.expected_close_date IS NULL THEN 'none'
                                        WHEN d.expected_close_date < t.first THEN 'earlier'
                                        WHEN d.expected_close_date >= (t.first + make_interval(months => :months))::date
                                            THEN 'later'
                                        ELSE 'month' END AS bucket,
                                   date_trunc('month', d.expected_close_date)::date AS month, d.value
                              FROM crm.deals d, today t
                             WHERE d.workspace_id = :workspace_id AND d.status IN ('open', 'on_hold')),
                        months AS (
                            SELECT (t.first + make_interval(months => i))::date AS month
                              FROM today t, generate_series(0, :months - 1) AS i)
                        SELECT * FROM (
                            SELECT 'month' AS bucket, m.month, count(o.month) AS n, coalesce(sum(o.value), 0) AS total
                              FROM months m LEFT JOIN open o ON o.bucket = 'month' AND o.month = m.month
                             GROUP BY m.month
                            UNION ALL
                            SELECT bucket, NULL, count(*), coalesce(sum(value), 0) FROM open
                             WHERE bucket <> 'month' GROUP BY bucket) AS buckets
                         ORDER BY CASE bucket WHEN 'earlier' THEN 0 WHEN 'month' THEN 1 WHEN 'later' THEN 2 ELSE 3 END,
                                  month
                        """)
                .bind("workspace_id", workspaceId).bind("months", months)
                .map((rs, ctx) -> new CloseMonth(rs.getString("bucket"), rs.getObject("month", LocalDate.class),
                        rs.getLong("n"), rs.getBigDecimal("total")))
                .list();
    }

    /**
     * Deals won and lost in each of the last {@code months} months, this one included. A deal closed when its
     * {@code actual_close_date} says; without one, on the day it last changed, which for a closed deal is when it
     * was closed unless it was edited since.
     */
    List<Closed> closedPerMonth(int months) {
        return handle.createQuery("""
                        WITH months AS (
                            SELECT (date_trunc('month', now() AT TIME ZONE 'UTC')
                                    - make_interval(months => i))::date AS month
                              FROM generate_series(0, :months - 1) AS i),
                        closed AS (
                            SELECT status, date_trunc('month', coalesce(actual_close_date,
                                       (updated_at AT TIME ZONE 'UTC')::date))::date AS month
                              FROM crm.deals
                             WHERE workspace_id = :workspace_id AND status IN ('closed_won', 'closed_lost'))
                        SELECT m.month, count(*) FILTER (WHERE c.status = 'closed_won') AS won,
                               count(*) FILTER (WHERE c.status = 'closed_lost') AS lost
                          FROM months m LEFT JOIN closed c ON c.month = m.month
                         GROUP BY m.month ORDER BY m.month
                        """)
                .bind("workspace_id", workspaceId).bind("months", months)
                .map((rs, ctx) -> new Closed(rs.getObject("month", LocalDate.class), rs.getLong("won"),
                        rs.getLong("lost")))
                .list();
    }
}
