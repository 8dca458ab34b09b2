-- The chat home counts the conversations that began in each of the last weeks: a range of this index rather than
-- every session the workspace ever had.
CREATE INDEX IF NOT EXISTS sessions_created ON sessions (workspace_id, created_at);
