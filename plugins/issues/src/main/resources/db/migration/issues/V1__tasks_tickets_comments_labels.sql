-- Tasks and tickets live in separate tables: `kind` on every route selects one of them, and a list never
-- merges the two. Their ids come from gen_random_uuid(), so an id names at most one item across both.
-- Projects and cycles belong to the projects plugin: they are checked through its ProjectDirectory, so there
-- are no foreign keys into its schema.

-- Trigram indexes for `search`; pg_trgm's operator classes are looked up in whatever schema holds it, since
-- another plugin may have created the extension first.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE TABLE tasks (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id    uuid NOT NULL,
    title           text NOT NULL CHECK (length(title) BETWEEN 1 AND 500),
    description     text CHECK (length(description) <= 50000),
    status          text NOT NULL DEFAULT 'backlog'
                    CHECK (status IN ('backlog', 'todo', 'in_progress', 'in_review', 'done', 'cancelled')),
    priority        text NOT NULL DEFAULT 'none' CHECK (priority IN ('none', 'low', 'medium', 'high', 'urgent')),
    project_id      uuid,
    assignee_id     uuid,
    due_at          timestamptz,
    start_date      date,
    parent_id       uuid REFERENCES tasks (id),
    cycle_id        uuid,
    -- An epic is a task that groups other tasks (or tickets).
    epic_id         uuid REFERENCES tasks (id),
    estimate_hours  numeric CHECK (estimate_hours >= 0 AND estimate_hours <= 100000),
    created_by      uuid,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    -- Soft delete (DELETE /api/v1/issues/{id}); restore with UPDATE issues.tasks SET deleted_at = NULL WHERE id = ...
    deleted_at      timestamptz
);
CREATE INDEX tasks_workspace_live ON tasks (workspace_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX tasks_project ON tasks (workspace_id, project_id, created_at, id) WHERE deleted_at IS NULL;

-- Support tickets cannot be deleted through the API, hence no deleted_at.
CREATE TABLE tickets (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id    uuid NOT NULL,
    title           text NOT NULL CHECK (length(title) BETWEEN 1 AND 500),
    description     text CHECK (length(description) <= 50000),
    status          text NOT NULL DEFAULT 'new'
                    CHECK (status IN ('new', 'open', 'pending', 'on_hold', 'solved', 'closed')),
    priority        text NOT NULL DEFAULT 'none' CHECK (priority IN ('none', 'low', 'medium', 'high', 'urgent')),
    project_id      uuid,
    assignee_id     uuid,
    due_at          timestamptz,
    start_date      date,
    parent_id       uuid REFERENCES tickets (id),
    cycle_id        uuid,
    epic_id         uuid REFERENCES tasks (id),
    estimate_hours  numeric CHECK (estimate_hours >= 0 AND estimate_hours <= 100000),
    created_by      uuid,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tickets_workspace ON tickets (workspace_id, created_at, id);
CREATE INDEX tickets_project ON tickets (workspace_id, project_id, created_at, id);

DO $$
DECLARE
    trgm text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                   WHERE e.extname = 'pg_trgm');
BEGIN
    EXECUTE format('CREATE INDEX tasks_title_trgm ON tasks USING gin (title %I.gin_trgm_ops)', trgm);
    EXECUTE format('CREATE INDEX tasks_description_trgm ON tasks USING gin (description %I.gin_trgm_ops)', trgm);
    EXECUTE format('CREATE INDEX tickets_title_trgm ON tickets USING gin (title %I.gin_trgm_ops)', trgm);
    EXECUTE format('CREATE INDEX tickets_description_trgm ON tickets USING gin (description %I.gin_trgm_ops)', trgm);
END
$$;

CREATE TABLE comments (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL,
    task_id       uuid REFERENCES tasks (id),
    ticket_id     uuid REFERENCES tickets (id),
    body          text NOT NULL CHECK (length(body) BETWEEN 1 AND 20000),
    author_id     uuid NOT NULL,
    author_type   text NOT NULL CHECK (author_type IN ('user', 'connection')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CHECK (num_nonnulls(task_id, ticket_id) = 1)
);
CREATE INDEX comments_task ON comments (workspace_id, task_id, created_at, id) WHERE task_id IS NOT NULL;
CREATE INDEX comments_ticket ON comments (workspace_id, ticket_id, created_at, id) WHERE ticket_id IS NOT NULL;

CREATE TABLE labels (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL,
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    color         text CHECK (color ~ '^#[0-9A-Fa-f]{6}$'),
    created_at    timestamptz NOT NULL DEFAULT now()
);
-- Names are unique per workspace regardless of case: "Bug" and "bug" would be the same label to a person.
CREATE UNIQUE INDEX labels_name ON labels (workspace_id, lower(name));

CREATE TABLE task_labels (
    workspace_id  uuid NOT NULL,
    task_id       uuid NOT NULL REFERENCES tasks (id),
    label_id      uuid NOT NULL REFERENCES labels (id),
    PRIMARY KEY (task_id, label_id)
);
CREATE TABLE ticket_labels (
    workspace_id  uuid NOT NULL,
    ticket_id     uuid NOT NULL REFERENCES tickets (id),
    label_id      uuid NOT NULL REFERENCES labels (id),
    PRIMARY KEY (ticket_id, label_id)
);

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['tasks', 'tickets', 'comments', 'labels', 'task_labels', 'ticket_labels'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (workspace_id = lnp_core.current_workspace())'
                       ' WITH CHECK (workspace_id = lnp_core.current_workspace())', t);
    END LOOP;
END
$$;
