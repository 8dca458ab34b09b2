-- The first statement of a read admitted from the node's admission cache (WorkspaceTransactions
-- .CHECK_AND_SET_WORKSPACE): the workspace's admission version read again by its primary key, then the workspace and
-- the tenant role set, alone in its transaction. Until session 21 the check was an md5 of the key's row joined with
-- its connection, workspace, quotas and delegated user (KeyRepository.ADMISSION_FINGERPRINT at commit 338e607); see
-- docs/performance.md, "Admission by version, session 21".
--   pgbench -n -M prepared -c 1 -j 1 -T 6 -D ws=<workspace id> -f bench/sql/admission_check.sql DB
BEGIN;
SELECT COALESCE((SELECT version FROM lnp_core.admission_versions WHERE workspace_id = :ws::uuid), 0),
       set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true);
COMMIT;
