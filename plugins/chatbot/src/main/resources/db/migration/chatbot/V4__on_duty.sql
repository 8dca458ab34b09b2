-- Members who asked to be mailed when a visitor is handed over to a person. The address is the one the member had
-- when they went on duty: the mail goes out from the run worker, which has no session to look members up with;
-- whether they are still a member is checked when the mail is written.
CREATE TABLE on_duty (
    workspace_id uuid NOT NULL,
    user_id      uuid NOT NULL,
    email        text NOT NULL,
    since        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, user_id)
);
ALTER TABLE on_duty ENABLE ROW LEVEL SECURITY;
ALTER TABLE on_duty FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON on_duty USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());
