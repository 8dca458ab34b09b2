-- Plugins check that a referenced person (an assignee, a lead) is a user of the caller's workspace, through
-- WorkspaceTx.isUser. The request role may read who belongs to its own workspace, and nothing else.
ALTER TABLE users ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON users USING (workspace_id = current_workspace());
GRANT SELECT (id, workspace_id, role) ON users TO ${tenant_role};
