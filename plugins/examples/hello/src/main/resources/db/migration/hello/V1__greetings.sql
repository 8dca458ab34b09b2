CREATE TABLE greetings (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    name         text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX greetings_workspace ON greetings (workspace_id, created_at);

-- Workspace-owned tables must carry row-level security: the platform refuses to start otherwise.
ALTER TABLE greetings ENABLE ROW LEVEL SECURITY;
ALTER TABLE greetings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON greetings
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());
