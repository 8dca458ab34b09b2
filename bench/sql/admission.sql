-- The admission statement alone (KeyRepository.admit, with the values the platform binds written in): the key
-- looked up with its connection and workspace, its last use touched (a no-op within the minute), and :chunk
-- positions reserved in the connection's window. :chunk 0 is a request the node's lease covers (nothing written),
-- 1 every request counting as before the leases (one upsert of the hot window row each).
-- As a read admits it: the statement's two quota CTEs (a write's monthly unit, taken since session 9) are left
-- out here, since a request without a quota binds :charge false and they do nothing. Since session 10 most reads
-- skip this statement (the node's admission cache, re-checked by the workspace's admission version in the
-- transaction's first statement); it runs when a read reserves rate positions, and for writes with a quota.
--   pgbench -n -M prepared -c 4 -j 2 -T 10 -D hash=<hex SHA-256 of the key> -D chunk=0 -f bench/sql/admission.sql DB
WITH found AS (
    SELECT admitted.*, COALESCE(v.version, 0) AS admission_version, c.tool_calls_used
      FROM (SELECT k.id AS key_id, k.legacy, k.valid_until, k.revoked_at AS key_revoked_at,
                   c.id AS connection_id, c.workspace_id, c.identity_id, c.scopes, c.preset,
                   c.expires_at, c.revoked_at AS connection_revoked_at, c.delegation_enabled,
                   c.delegated_user_id, u.role AS delegated_role, c.tool_allow, c.tool_deny,
                   c.read_only_tools, c.rest_per_minute, c.mcp_per_minute,
                   c.mcp_only, c.tool_call_budget,
                   w.disabled_modules,
                   (SELECT jsonb_object_agg(q.quota, q.monthly) FROM lnp_core.workspace_quotas q
                     WHERE q.workspace_id = w.id)::text AS workspace_quotas
              FROM lnp_core.api_keys k
              JOIN lnp_core.connections c ON c.id = k.connection_id
              JOIN lnp_core.workspaces w ON w.id = c.workspace_id
              LEFT JOIN lnp_core.users u ON u.id = c.delegated_user_id
             WHERE k.key_hash = decode(:hash, 'hex')) admitted
      JOIN lnp_core.connections c ON c.id = admitted.connection_id
      LEFT JOIN lnp_core.admission_versions v ON v.workspace_id = admitted.workspace_id),
live AS (
    SELECT key_id, connection_id FROM found
     WHERE true AND key_revoked_at IS NULL AND connection_revoked_at IS NULL
       AND (valid_until IS NULL OR valid_until > now())
       AND (expires_at IS NULL OR expires_at > now())
       AND (NOT legacy OR true)),
touched AS (
    UPDATE lnp_core.api_keys SET last_used_at = now()
     WHERE id IN (SELECT key_id FROM live)
       AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')),
counted AS (
    INSERT INTO lnp_core.rate_windows AS r (connection_id, bucket, window_start, hits)
    SELECT connection_id, 'rest', date_trunc('minute', now()), (:chunk)::int
      FROM live, (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
     WHERE (:chunk)::int > 0
    ON CONFLICT (connection_id, bucket, window_start) DO UPDATE SET hits = r.hits + (:chunk)::int
    RETURNING hits)
SELECT found.*, (SELECT hits FROM counted) AS hits FROM found;
