-- What a widget's language model calls have used, per conversation and per day (UTC), so that a widget's limits on
-- requests and tokens hold across nodes. period is 'session:<session id>' or 'day:<yyyy-mm-dd>'.
CREATE TABLE llm_usage (
    workspace_id uuid NOT NULL,
    widget_id    uuid NOT NULL REFERENCES widgets (id) ON DELETE CASCADE,
    period       text NOT NULL,
    requests     integer NOT NULL DEFAULT 0,
    tokens       bigint NOT NULL DEFAULT 0,
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (widget_id, period)
);
ALTER TABLE llm_usage ENABLE ROW LEVEL SECURITY;
ALTER TABLE llm_usage FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON llm_usage USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());
