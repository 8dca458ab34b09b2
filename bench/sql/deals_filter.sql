-- GET /api/v1/crm/deals?status=open&stage=proposal&value_min=..&value_max=..&limit=50 (DealRepository.list: the count,
-- then the page its rows are streamed from).
BEGIN;
SELECT set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true);
SELECT count(*) FROM crm.deals WHERE workspace_id = :ws AND status = ANY(:statuses) AND stage = ANY(:stages)
   AND value >= :value_min AND value <= :value_max;
SELECT * FROM crm.deals WHERE workspace_id = :ws AND status = ANY(:statuses) AND stage = ANY(:stages)
   AND value >= :value_min AND value <= :value_max
 ORDER BY created_at DESC, id DESC LIMIT 50 OFFSET 0;
COMMIT;
