-- Outgoing e-mail: every message the core or a plugin sends, written durably (in the sender's transaction when
-- it has one) and delivered by a background sender with retries. With no SMTP server configured a message is
-- kept here as the deployment's local mailbox (state 'local') instead.
CREATE TABLE mail_messages (
    id              uuid PRIMARY KEY,
    seq             bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    -- NULL for deployment mail (not about one workspace).
    workspace_id    uuid REFERENCES workspaces (id) ON DELETE CASCADE,
    kind            text NOT NULL CHECK (kind ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
    recipient       text NOT NULL CHECK (length(recipient) <= 320),
    sender          text NOT NULL,
    subject         text NOT NULL,
    -- The bodies are cleared once SMTP has accepted the message: they may carry sign-in links.
    body_text       text,
    body_html       text,
    message_id      text NOT NULL UNIQUE,
    state           text NOT NULL CHECK (state IN ('pending', 'sent', 'failed', 'local')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    lease_owner     text,
    lease_until     timestamptz,
    last_error      text,
    created_at      timestamptz NOT NULL,
    completed_at    timestamptz
);
CREATE INDEX mail_messages_due ON mail_messages (next_attempt_at) WHERE state = 'pending';
CREATE INDEX mail_messages_recent ON mail_messages (seq DESC);
CREATE INDEX mail_messages_recipient ON mail_messages (lower(recipient), seq DESC);
CREATE INDEX mail_messages_workspace ON mail_messages (workspace_id, seq DESC);

ALTER TABLE mail_messages ENABLE ROW LEVEL SECURITY;
ALTER TABLE mail_messages FORCE ROW LEVEL SECURITY;
-- A workspace transaction may queue mail of its own workspace only, and cannot read the mailbox.
CREATE POLICY tenant_isolation ON mail_messages
    USING (workspace_id = current_workspace())
    WITH CHECK (workspace_id = current_workspace());
-- The sender and the operator's mailbox work across workspaces as the user the platform connects with.
DO $$
BEGIN
    EXECUTE format('CREATE POLICY platform_worker ON mail_messages TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;
GRANT INSERT ON mail_messages TO ${tenant_role};
