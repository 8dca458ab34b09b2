-- Per-key request counts in fixed one-minute windows, shared by every node on this database.
CREATE UNLOGGED TABLE rate_windows (
    connection_id uuid NOT NULL,
    bucket        text NOT NULL,
    window_start  timestamptz NOT NULL,
    hits          integer NOT NULL,
    PRIMARY KEY (connection_id, bucket, window_start)
);

-- Monthly quota use per workspace and counter (e.g. 'crm').
CREATE TABLE quota_usage (
    workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    counter      text NOT NULL,
    month        date NOT NULL,
    used         bigint NOT NULL,
    PRIMARY KEY (workspace_id, counter, month)
);

-- Responses stored for Idempotency-Key replays. Written in the request's own transaction, so a stored
-- response exists exactly when its effect committed.
CREATE TABLE idempotency_keys (
    workspace_id  uuid NOT NULL,
    connection_id uuid NOT NULL,
    idem_key      text NOT NULL,
    route         text NOT NULL,
    request_hash  bytea NOT NULL,
    status        integer,
    response      bytea,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (connection_id, idem_key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
ALTER TABLE idempotency_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE idempotency_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON idempotency_keys
    USING (workspace_id = current_workspace())
    WITH CHECK (workspace_id = current_workspace());
GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_keys TO ${tenant_role};

-- One row per authenticated request, written in batches off the request path.
CREATE TABLE audit_log (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at            timestamptz NOT NULL,
    request_id    text NOT NULL,
    workspace_id  uuid NOT NULL,
    connection_id uuid NOT NULL,
    surface       text NOT NULL,
    method        text NOT NULL,
    route         text NOT NULL,
    status        integer NOT NULL,
    latency_ms    numeric(10, 3) NOT NULL
);
CREATE INDEX audit_log_workspace ON audit_log (workspace_id, at DESC);
