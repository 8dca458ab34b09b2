-- GET /api/v1/crm/deals?status=open&stage=proposal&value_min=..&value_max=..&limit=50 (DealRepository.list: the page's
-- ids chosen first, its rows streamed from the join, with the count selected beside them; one status and one stage
-- are bound as `=`).
BEGIN;
SELECT set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true);
WITH page AS (
    SELECT id, created_at FROM crm.deals WHERE workspace_id = :ws AND status = :status AND stage = :stage
       AND value >= :value_min AND value <= :value_max
     ORDER BY created_at DESC, id DESC LIMIT 50 OFFSET 0)
SELECT d.*, (SELECT count(*) FROM crm.deals WHERE workspace_id = :ws AND status = :status AND stage = :stage
              AND value >= :value_min AND value <= :value_max) AS page_total
  FROM page JOIN crm.deals d ON d.id = page.id AND d.workspace_id = :ws
 ORDER BY page.created_at DESC, page.id DESC;
COMMIT;
