-- Conversations other plugins hold with a contact (docs/crm.md, "Conversations"): the chatbot links a verified
-- visitor's chat here, through the ContactDirectory service, and the contact's page lists them. The conversation
-- lives in its own plugin; this row is what the CRM knows of it (its title, when it started, where its page is).
-- Deleting the contact forgets its links. Additive only: the previous version never reads the table.
CREATE TABLE contact_conversations (
    workspace_id    uuid        NOT NULL,
    conversation_id uuid        NOT NULL,
    contact_id      uuid        NOT NULL,
    channel         text        NOT NULL,
    title           text        NOT NULL,
    path            text        NOT NULL CHECK (path LIKE '/app/%'),
    started_at      timestamptz NOT NULL,
    linked_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, conversation_id),
    FOREIGN KEY (workspace_id, contact_id) REFERENCES contacts (workspace_id, id) ON DELETE CASCADE
);

CREATE INDEX contact_conversations_contact ON contact_conversations (workspace_id, contact_id, started_at DESC);

ALTER TABLE contact_conversations ENABLE ROW LEVEL SECURITY;
ALTER TABLE contact_conversations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON contact_conversations
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());
