-- GET /api/v1/crm/contacts?page=:page&limit=50 (ContactRepository.pageSql, the total selected with the page, no filter).
-- :offset = (page - 1) * 50
BEGIN;
SELECT set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true);
WITH page AS (
    SELECT id, created_at FROM crm.contacts
     WHERE workspace_id = :ws
     ORDER BY created_at DESC, id DESC
     LIMIT 50 OFFSET :offset)
SELECT c.*, (SELECT coalesce(sum(n), 0) FROM crm.contact_counts WHERE workspace_id = :ws) AS page_total
  FROM page JOIN crm.contacts c ON c.id = page.id AND c.workspace_id = :ws
 ORDER BY page.created_at DESC, page.id DESC;
COMMIT;
