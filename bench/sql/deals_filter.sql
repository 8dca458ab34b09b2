-- GET /api/v1/crm/deals?status=open&stage=proposal&value_min=..&value_max=..&limit=50 (DealRepository.list: the page its
-- rows are streamed from, with the count selected beside them).
BEGIN;
SELECT set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true);
SELECT *, (SELECT count(*) FROM crm.deals WHERE workspace_id = :ws AND status = ANY(:statuses) AND stage = ANY(:stages)
              AND value >= :value_min AND value <= :value_max) AS page_total
  FROM crm.deals WHERE workspace_id = :ws AND status = ANY(:statuses) AND stage = ANY(:stages)
   AND value >= :value_min AND value <= :value_max
 ORDER BY created_at DESC, id DESC LIMIT 50 OFFSET 0;
COMMIT;
