-- When a task was done and a ticket closed, for the homes' burn-up and opened/closed charts. `updated_at` moves with
-- every later edit, so the moment is kept apart: set when the status enters done (a task) or solved/closed (a
-- ticket), cleared when it leaves them. Triggers keep it, so every writer (API, MCP, pages, bulk updates, a previous
-- version of the plugin on another node) records it without knowing the column.
ALTER TABLE tasks ADD COLUMN done_at timestamptz;
ALTER TABLE tickets ADD COLUMN closed_at timestamptz;

-- Items finished before this column existed: their last change is the best known moment.
UPDATE tasks SET done_at = updated_at WHERE status = 'done';
UPDATE tickets SET closed_at = updated_at WHERE status IN ('solved', 'closed');

CREATE FUNCTION task_done_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'done' THEN
        IF TG_OP = 'INSERT' OR OLD.status <> 'done' THEN
            NEW.done_at := now();
        END IF;
    ELSE
        NEW.done_at := NULL;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER task_done_at BEFORE INSERT OR UPDATE OF status ON tasks
    FOR EACH ROW EXECUTE FUNCTION task_done_at();

CREATE FUNCTION ticket_closed_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status IN ('solved', 'closed') THEN
        IF TG_OP = 'INSERT' OR OLD.status NOT IN ('solved', 'closed') THEN
            NEW.closed_at := now();
        END IF;
    ELSE
        NEW.closed_at := NULL;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER ticket_closed_at BEFORE INSERT OR UPDATE OF status ON tickets
    FOR EACH ROW EXECUTE FUNCTION ticket_closed_at();

-- Tickets closed per week: a range of this index, as tickets opened per week is one of tickets_workspace.
CREATE INDEX tickets_closed ON tickets (workspace_id, closed_at) WHERE closed_at IS NOT NULL;

-- A cycle's open tasks by status and its burn-up read only this index (an index-only scan): with 100,000 tasks
-- in one cycle, the table's pages are not read at all, where tasks_cycle needed every row's page for its status
-- and dates.
CREATE INDEX tasks_cycle_progress ON tasks (workspace_id, cycle_id, status) INCLUDE (created_at, done_at)
    WHERE deleted_at IS NULL AND cycle_id IS NOT NULL;
