-- What happened to contacts, companies and deals, in words people read on their pages (docs/crm.md, "Activity").
-- Written in the transaction of the change itself, so an entry exists exactly when the change does. The outbox is
-- no substitute: its events are purged once the webhook history period has passed (30 days) and do not say who
-- made the change.
--
-- An entry names the records it concerns as they were after the change (a deal's entry carries the deal's contact
-- and company), without foreign keys: the history outlives a deleted deal, whose other timelines still tell of it.
-- Additive only: the previous version keeps working beside it and simply writes no entries.
CREATE TABLE activity (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id  uuid        NOT NULL,
    at            timestamptz NOT NULL DEFAULT now(),
    what          text        NOT NULL CHECK (what IN (
                      'contact.created', 'contact.changed',
                      'company.created', 'company.changed',
                      'deal.created', 'deal.changed', 'deal.moved', 'deal.won', 'deal.lost', 'deal.reopened',
                      'deal.linked', 'deal.unlinked', 'deal.deleted')),
    contact_id    uuid,
    company_id    uuid,
    deal_id       uuid,
    -- The deal's title at the time, so that a contact's timeline names a deal that was renamed or deleted since.
    subject       text,
    fields        text[]      NOT NULL DEFAULT '{}',
    from_value    text,
    to_value      text,
    actor_type    text        NOT NULL CHECK (actor_type IN ('member', 'connection')),
    actor_id      uuid,
    connection_id uuid
);

-- Each timeline is read newest first off its own index, a page at a time.
CREATE INDEX activity_contact ON activity (workspace_id, contact_id, id DESC) WHERE contact_id IS NOT NULL;
CREATE INDEX activity_company ON activity (workspace_id, company_id, id DESC) WHERE company_id IS NOT NULL;
CREATE INDEX activity_deal ON activity (workspace_id, deal_id, id DESC) WHERE deal_id IS NOT NULL;

ALTER TABLE activity ENABLE ROW LEVEL SECURITY;
ALTER TABLE activity FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON activity
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());
