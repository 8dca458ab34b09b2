-- One row per tool call through the MCP surfaces: who, which tool, how it ended, how long it took, which
-- entities it touched. Never the arguments: writes may carry personal data. Written in batches off the
-- request path by the pool's user; the request role may read its own workspace's rows (the audit listing
-- runs inside the request's transaction). Row-level security is enabled but not forced, so the writer, which
-- inserts rows of many workspaces in one batch as the tables' owner, is not filtered.
CREATE TABLE tool_calls (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at            timestamptz NOT NULL,
    request_id    text NOT NULL,
    workspace_id  uuid NOT NULL,
    connection_id uuid NOT NULL,
    endpoint      text NOT NULL,
    tool          text NOT NULL,
    outcome       text NOT NULL
        CHECK (outcome IN ('ok', 'denied', 'unknown_tool', 'invalid_arguments', 'rejected', 'error')),
    error_code    text,
    duration_ms   numeric(10, 3) NOT NULL,
    entities      jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX tool_calls_workspace ON tool_calls (workspace_id, at DESC, id DESC);

ALTER TABLE tool_calls ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tool_calls USING (workspace_id = current_workspace());
GRANT SELECT ON tool_calls TO ${tenant_role};
