-- The application's pipeline board reads the most recently changed deals of each stage; with this index each
-- lane is the first rows of one index range instead of a sort of the stage's deals.
CREATE INDEX IF NOT EXISTS deals_stage_recent ON deals (workspace_id, stage, updated_at DESC, id DESC);
