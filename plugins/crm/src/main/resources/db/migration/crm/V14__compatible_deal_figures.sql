-- The CRM home's figures, kept as the deals change. Its three charts read every open deal twice (by stage, by
-- expected close month) and every closed deal once (won and lost per month): 10,000 rows a view with 10,000 deals,
-- 31.8 ms at the 95th percentile. Here each workspace's deals are counted, and their value summed, per status,
-- stage and month, so the home reads a few hundred rows whatever the number of deals.
--
-- `month` is the first day of the month that matters for the status: for an open or on-hold deal the month it is
-- expected to close (NULL without a date); for a won or lost deal the month it closed, its actual_close_date or
-- else the day it last changed (UTC), as the home has always counted it.
--
-- A trigger keeps it in the transaction that writes the deal, so every writer (API, MCP, pages, the board, a
-- previous version of the plugin on another node) keeps it without knowing the table, and the figures are never
-- behind the deals. As with contact_counts (V3), the rows are spread over 16 stripes chosen by the database session
-- (pg_backend_pid() % 16), so concurrent writers rarely wait on one row; a stripe may go negative, only the sum
-- over a workspace's stripes is a figure.
CREATE TABLE deal_figures (
    workspace_id uuid     NOT NULL,
    status       text     NOT NULL,
    stage        text     NOT NULL,
    month        date,
    stripe       smallint NOT NULL,
    deals        bigint   NOT NULL,
    value        numeric  NOT NULL,
    CONSTRAINT deal_figures_key UNIQUE NULLS NOT DISTINCT (workspace_id, status, stage, month, stripe)
);

ALTER TABLE deal_figures ENABLE ROW LEVEL SECURITY;
ALTER TABLE deal_figures FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON deal_figures
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());

CREATE FUNCTION deal_figures_month(status text, expected date, actual date, updated timestamptz) RETURNS date
    LANGUAGE sql IMMUTABLE AS $$
    SELECT date_trunc('month', (CASE WHEN status IN ('closed_won', 'closed_lost')
                                     THEN coalesce(actual, (updated AT TIME ZONE 'UTC')::date)
                                     ELSE expected END)::timestamp)::date
$$;

CREATE FUNCTION deal_figures_keep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    stripe smallint := pg_backend_pid() % 16;
    old_month date;
    new_month date;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        old_month := crm.deal_figures_month(OLD.status, OLD.expected_close_date, OLD.actual_close_date, OLD.updated_at);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        new_month := crm.deal_figures_month(NEW.status, NEW.expected_close_date, NEW.actual_close_date, NEW.updated_at);
    END IF;
    -- Most changes (a title, a probability, a contact) move no figure.
    IF TG_OP = 'UPDATE' AND OLD.workspace_id = NEW.workspace_id AND OLD.status = NEW.status
            AND OLD.stage = NEW.stage AND old_month IS NOT DISTINCT FROM new_month
            AND OLD.value IS NOT DISTINCT FROM NEW.value THEN
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        INSERT INTO crm.deal_figures AS f (workspace_id, status, stage, month, stripe, deals, value)
        VALUES (OLD.workspace_id, OLD.status, OLD.stage, old_month, stripe, -1, -coalesce(OLD.value, 0))
        ON CONFLICT ON CONSTRAINT deal_figures_key
            DO UPDATE SET deals = f.deals + EXCLUDED.deals, value = f.value + EXCLUDED.value;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO crm.deal_figures AS f (workspace_id, status, stage, month, stripe, deals, value)
        VALUES (NEW.workspace_id, NEW.status, NEW.stage, new_month, stripe, 1, coalesce(NEW.value, 0))
        ON CONFLICT ON CONSTRAINT deal_figures_key
            DO UPDATE SET deals = f.deals + EXCLUDED.deals, value = f.value + EXCLUDED.value;
    END IF;
    RETURN NULL;
END
$$;

-- The deals there before: counted once, on stripe 0, before the trigger counts what follows (Flyway runs this file
-- in one transaction, and the table is new, so no write is counted twice or missed).
LOCK TABLE deals IN SHARE MODE;
INSERT INTO deal_figures (workspace_id, status, stage, month, stripe, deals, value)
SELECT workspace_id, status, stage,
       deal_figures_month(status, expected_close_date, actual_close_date, updated_at), 0, count(*),
       coalesce(sum(value), 0)
  FROM deals
 GROUP BY 1, 2, 3, 4;

CREATE TRIGGER deal_figures_keep AFTER INSERT OR UPDATE OR DELETE ON deals
    FOR EACH ROW EXECUTE FUNCTION deal_figures_keep();
