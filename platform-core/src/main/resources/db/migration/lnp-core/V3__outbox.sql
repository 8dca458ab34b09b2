-- Domain events, written in the same transaction as the change that caused them. The webhook dispatcher
-- reads them after commit; a rolled-back change leaves no row.
CREATE TABLE outbox (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    seq           bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    workspace_id  uuid NOT NULL,
    event_name    text NOT NULL,
    payload       jsonb NOT NULL,
    occurred_at   timestamptz NOT NULL DEFAULT now(),
    dispatched_at timestamptz
);
CREATE INDEX outbox_pending ON outbox (seq) WHERE dispatched_at IS NULL;
CREATE INDEX outbox_workspace ON outbox (workspace_id, seq);

ALTER TABLE outbox ENABLE ROW LEVEL SECURITY;
ALTER TABLE outbox FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON outbox
    USING (workspace_id = current_workspace())
    WITH CHECK (workspace_id = current_workspace());
GRANT INSERT, SELECT ON outbox TO ${tenant_role};
