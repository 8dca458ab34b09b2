-- Allocations can be changed (PATCH) and removed (DELETE, for good: a plan entry taken back leaves nothing to
-- restore). The capacity read looks a person's allocations up by date range.
ALTER TABLE allocations ADD COLUMN updated_at timestamptz;
UPDATE allocations SET updated_at = created_at;
ALTER TABLE allocations ALTER COLUMN updated_at SET NOT NULL, ALTER COLUMN updated_at SET DEFAULT now();
CREATE INDEX allocations_person ON allocations (workspace_id, user_id, start_date, end_date);

-- A person's weekly capacity in hours, where it differs from the default (40): part-time work, a reduced week.
-- One row per person of the workspace; no row means the default.
CREATE TABLE capacities (
    workspace_id  uuid NOT NULL,
    user_id       uuid NOT NULL,
    weekly_hours  numeric NOT NULL CHECK (weekly_hours >= 0 AND weekly_hours <= 168),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, user_id)
);

ALTER TABLE capacities ENABLE ROW LEVEL SECURITY;
ALTER TABLE capacities FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON capacities
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());
