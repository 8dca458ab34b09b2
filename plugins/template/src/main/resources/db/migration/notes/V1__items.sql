-- Applied to the schema the plugin names in registrar.migrations("notes"), with a history table of its own.
CREATE TABLE items (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    text         text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX items_workspace ON items (workspace_id, created_at, id);

-- Workspace-owned tables must carry row-level security: the platform refuses to start otherwise.
ALTER TABLE items ENABLE ROW LEVEL SECURITY;
ALTER TABLE items FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON items
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());
