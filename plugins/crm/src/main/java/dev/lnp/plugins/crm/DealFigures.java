package dev.lnp.plugins.crm;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * The CRM home's figures, one grouped statement per chart, over {@code deal_figures}: the deals counted and their
 * value summed per status, stage and month, kept by a trigger in the transaction of every deal's write (V14), so a
 * chart reads a few hundred rows however many deals there are. Values are summed as they are stored, whatever their
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

    /** The stages that have open deals. */
    List<StageValue> pipelineByStage() {
        return handle.createQuery("""
                        SELECT stage, sum(deals) AS n, sum(value) AS total FROM crm.deal_figures
                         WHERE workspace_id = :workspace_id AND status IN ('open', 'on_hold')
                         GROUP BY stage HAVING sum(deals) > 0
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
                            SELECT CASE WHEN f.month IS NULL THEN 'none'
                                        WHEN f.month < t.first THEN 'earlier'
                                        WHEN f.month >= (t.first + make_interval(months => :months))::date THEN 'later'
                                        ELSE 'month' END AS bucket,
                                   f.month, f.deals, f.value
                              FROM crm.deal_figures f, today t
                             WHERE f.workspace_id = :workspace_id AND f.status IN ('open', 'on_hold')),
                        months AS (
                            SELECT (t.first + make_interval(months => i))::date AS month
                              FROM today t, generate_series(0, :months - 1) AS i)
                        SELECT * FROM (
                            SELECT 'month' AS bucket, m.month, coalesce(sum(o.deals), 0) AS n,
                                   coalesce(sum(o.value), 0) AS total
                              FROM months m LEFT JOIN open o ON o.bucket = 'month' AND o.month = m.month
                             GROUP BY m.month
                            UNION ALL
                            SELECT bucket, NULL, sum(deals), sum(value) FROM open
                             WHERE bucket <> 'month' GROUP BY bucket HAVING sum(deals) > 0) AS buckets
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
     * was closed unless it was edited since (the month {@code deal_figures} keeps for a closed deal).
     */
    List<Closed> closedPerMonth(int months) {
        return handle.createQuery("""
                        WITH months AS (
                            SELECT (date_trunc('month', now() AT TIME ZONE 'UTC')
                                    - make_interval(months => i))::date AS month
                              FROM generate_series(0, :months - 1) AS i),
                        closed AS (
                            SELECT status, month, deals FROM crm.deal_figures
                             WHERE workspace_id = :workspace_id AND status IN ('closed_won', 'closed_lost'))
                        SELECT m.month, coalesce(sum(c.deals) FILTER (WHERE c.status = 'closed_won'), 0) AS won,
                               coalesce(sum(c.deals) FILTER (WHERE c.status = 'closed_lost'), 0) AS lost
                          FROM months m LEFT JOIN closed c ON c.month = m.month
                         GROUP BY m.month ORDER BY m.month
                        """)
                .bind("workspace_id", workspaceId).bind("months", months)
                .map((rs, ctx) -> new Closed(rs.getObject("month", LocalDate.class), rs.getLong("won"),
                        rs.getLong("lost")))
                .list();
    }
}
