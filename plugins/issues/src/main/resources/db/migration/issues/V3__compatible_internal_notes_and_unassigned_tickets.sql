-- Internal notes: a comment members write for each other on a task or ticket. It is listed with the other
-- comments (application, API, MCP), but a ticket's internal note never reaches the customer (the chatbot's
-- hand-off relays only the others). A column with a default: the previous version keeps working beside it.
ALTER TABLE comments ADD COLUMN internal boolean NOT NULL DEFAULT false;

-- The support inbox's "unassigned" view, in the list's default order; the assignee index covers only set values.
CREATE INDEX tickets_unassigned ON tickets (workspace_id, created_at, id) WHERE assignee_id IS NULL;
