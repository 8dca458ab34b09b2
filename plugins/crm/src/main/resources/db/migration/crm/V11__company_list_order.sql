-- The application lists companies by name: read off this index rather than sorted.
CREATE INDEX IF NOT EXISTS companies_by_name ON companies (workspace_id, lower(name), id);
