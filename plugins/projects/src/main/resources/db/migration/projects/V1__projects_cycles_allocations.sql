-- Projects are soft-deleted: deleted_at set hides them from every route. An operator restores one with
--   UPDATE projects.projects SET deleted_at = NULL WHERE id = '<id>';
CREATE TABLE projects (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL,
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    description   text CHECK (length(description) <= 10000),
    -- Only current keys are stored; legacy keys are normalized before they reach the table.
    status        text NOT NULL DEFAULT 'planned'
                  CHECK (status IN ('planned', 'active', 'paused', 'completed', 'cancelled')),
    priority      text CHECK (priority IN ('low', 'medium', 'high', 'urgent')),
    progress      numeric CHECK (progress BETWEEN 0 AND 100),
    start_date    date,
    end_date      date,
    team_id       uuid,
    lead_user_id  uuid,
    template_id   uuid,
    deal_id       uuid,
    company_id    uuid,
    github_url    text CHECK (length(github_url) <= 500),
    external_id   text CHECK (length(external_id) <= 255),
    hosted        boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    deleted_at    timestamptz,
    CHECK (end_date IS NULL OR start_date IS NULL OR end_date >= start_date)
);
CREATE INDEX projects_workspace_live ON projects (workspace_id, created_at, id) WHERE deleted_at IS NULL;

CREATE TABLE cycles (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL,
    project_id    uuid NOT NULL REFERENCES projects (id),
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    start_date    date NOT NULL,
    end_date      date NOT NULL,
    status        text NOT NULL DEFAULT 'upcoming' CHECK (status IN ('upcoming', 'active', 'completed')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CHECK (end_date >= start_date)
);
CREATE INDEX cycles_project ON cycles (workspace_id, project_id, start_date, id);

-- Who works how much on what, for which dates: either hours per day or a percentage of the person's time.
CREATE TABLE allocations (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id   uuid NOT NULL,
    user_id        uuid NOT NULL,
    project_id     uuid REFERENCES projects (id),
    -- A task or ticket of the issues plugin; checked through its IssueDirectory, so no foreign key.
    issue_id       uuid,
    start_date     date NOT NULL,
    end_date       date NOT NULL,
    hours_per_day  numeric CHECK (hours_per_day > 0 AND hours_per_day <= 24),
    percentage     numeric CHECK (percentage > 0 AND percentage <= 100),
    note           text CHECK (length(note) <= 1000),
    created_by     uuid,
    created_at     timestamptz NOT NULL DEFAULT now(),
    CHECK (end_date >= start_date),
    CHECK (num_nonnulls(hours_per_day, percentage) = 1),
    CHECK (project_id IS NOT NULL OR issue_id IS NOT NULL)
);
CREATE INDEX allocations_workspace ON allocations (workspace_id, start_date, id);

ALTER TABLE projects ENABLE ROW LEVEL SECURITY;
ALTER TABLE projects FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON projects
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());

ALTER TABLE cycles ENABLE ROW LEVEL SECURITY;
ALTER TABLE cycles FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON cycles
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());

ALTER TABLE allocations ENABLE ROW LEVEL SECURITY;
ALTER TABLE allocations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON allocations
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());
