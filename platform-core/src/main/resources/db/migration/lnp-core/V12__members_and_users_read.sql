-- A workspace always has exactly one owner: ownership moves only by transfer, in one transaction.
CREATE UNIQUE INDEX users_one_owner ON users (workspace_id) WHERE role = 'owner';

-- GET /api/v1/users (scope users.read) runs as the request role: it may read who belongs to its own workspace.
GRANT SELECT (email, display_name, created_at) ON users TO ${tenant_role};
