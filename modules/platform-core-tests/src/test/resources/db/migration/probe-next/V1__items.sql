CREATE TABLE items (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    name         text NOT NULL,
    kind         text NOT NULL DEFAULT 'a',
    created_at   timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE items ENABLE ROW LEVEL SECURITY;
ALTER TABLE items FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON items
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());

-- The console section and the people page of the probe (ConsoleSectionsTest, PeoplePagesTest).
CREATE TABLE desk_items (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    title        text NOT NULL,
    kind         text NOT NULL,
    pinned       boolean NOT NULL DEFAULT false,
    copies       integer,
    tags         text[] NOT NULL DEFAULT '{}',
    contact      text,
    summary      text,
    key_hash     text,
    active       boolean NOT NULL DEFAULT true,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (workspace_id, title)
);
ALTER TABLE desk_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE desk_items FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON desk_items
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());
CREATE TABLE desk_notes (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    item_id      uuid NOT NULL REFERENCES desk_items (id) ON DELETE CASCADE,
    body         text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE desk_notes ENABLE ROW LEVEL SECURITY;
ALTER TABLE desk_notes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON desk_notes
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());
