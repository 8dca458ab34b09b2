-- Indexes for the issues list's filters and orders (cycle_id, assignee, status, parent_id, label, order_by), so a
-- filtered page and its total stay index scans at 100,000 items in a workspace. Each filter index ends on the
-- list's default order (created_at, id), so a filtered page reads its rows already in order. The optional
-- columns are indexed only where set: `col = value` implies `col IS NOT NULL`, which the planner proves.
-- Orders left to a top-N sort (title, priority, -due_at) were measured acceptable and are not worth the writes.
CREATE INDEX tasks_cycle ON tasks (workspace_id, cycle_id, created_at, id)
    WHERE deleted_at IS NULL AND cycle_id IS NOT NULL;
CREATE INDEX tasks_assignee ON tasks (workspace_id, assignee_id, created_at, id)
    WHERE deleted_at IS NULL AND assignee_id IS NOT NULL;
CREATE INDEX tasks_parent ON tasks (workspace_id, parent_id, created_at, id)
    WHERE deleted_at IS NULL AND parent_id IS NOT NULL;
CREATE INDEX tasks_status ON tasks (workspace_id, status, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX tasks_updated ON tasks (workspace_id, updated_at, id) WHERE deleted_at IS NULL;
CREATE INDEX tasks_due ON tasks (workspace_id, due_at, id) WHERE deleted_at IS NULL;

CREATE INDEX tickets_cycle ON tickets (workspace_id, cycle_id, created_at, id) WHERE cycle_id IS NOT NULL;
CREATE INDEX tickets_assignee ON tickets (workspace_id, assignee_id, created_at, id) WHERE assignee_id IS NOT NULL;
CREATE INDEX tickets_parent ON tickets (workspace_id, parent_id, created_at, id) WHERE parent_id IS NOT NULL;
CREATE INDEX tickets_status ON tickets (workspace_id, status, created_at, id);
CREATE INDEX tickets_updated ON tickets (workspace_id, updated_at, id);
CREATE INDEX tickets_due ON tickets (workspace_id, due_at, id);

-- The label filter starts from the label: its link rows, then the items. The primary keys lead with the item.
CREATE INDEX task_labels_label ON task_labels (workspace_id, label_id, task_id);
CREATE INDEX ticket_labels_label ON ticket_labels (workspace_id, label_id, ticket_id);
