-- GET /api/v1/crm/contacts?search=<two words>&limit=50 (ContactRepository.pageSql, the total selected with the page with words).
-- :words is the text[] of the search words, e.g. {maría,engineer}
BEGIN;
SELECT set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true);
WITH page AS (
    SELECT id, created_at FROM crm.contacts
     WHERE workspace_id = :ws AND id IN (SELECT crm.contact_search_candidates(:words))
     ORDER BY created_at DESC, id DESC
     LIMIT 50 OFFSET 0)
SELECT c.*, (SELECT count(*) FROM crm.contacts WHERE workspace_id = :ws AND id IN (SELECT crm.contact_search_candidates(:words))) AS page_total
  FROM page JOIN crm.contacts c ON c.id = page.id AND c.workspace_id = :ws
 ORDER BY page.created_at DESC, page.id DESC;
COMMIT;
