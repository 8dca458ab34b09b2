-- The application's contacts list orders by last update and by name, and filters by tag: an index for each, so a
-- page is read off an index rather than sorted from the workspace's rows.
CREATE INDEX IF NOT EXISTS contacts_updated ON contacts (workspace_id, updated_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS contacts_by_name ON contacts (workspace_id, lower(last_name), lower(first_name), id);
CREATE INDEX IF NOT EXISTS contacts_tags ON contacts USING gin (tags);
