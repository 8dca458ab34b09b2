-- GET /api/v1/crm/contacts?search=<one word>&limit=1 (ContactRepository.pageSql, the total selected with the page with words): a page of
-- one and the counted total of every matching contact, the part of a search whose cost grows with the rows.
-- :words is the text[] of the search words, e.g. {engineer}
BEGIN;
SELECT set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true);
WITH page AS (
    SELECT id, created_at FROM crm.contacts
     WHERE workspace_id = :ws AND id IN (SELECT crm.contact_search_candidates(:words))
     ORDER BY created_at DESC, id DESC
     LIMIT 1 OFFSET 0)
SELECT c.*, (SELECT count(*) FROM crm.contacts WHERE workspace_id = :ws AND id IN (SELECT crm.contact_search_candidates(:words))) AS page_total
  FROM page JOIN crm.contacts c ON c.id = page.id AND c.workspace_id = :ws
 ORDER BY page.created_at DESC, page.id DESC;
COMMIT;
