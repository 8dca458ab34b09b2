-- A hand-off is a state of the conversation, not only a ticket: while it is open (waiting for a person, or taken
-- by one) every visitor message goes to the person instead of the assistant, until a member closes it. The inbox
-- lists the open ones; the widget learns the state from the handshake after a reload.
ALTER TABLE sessions
    ADD COLUMN handoff_state  text CHECK (handoff_state IN ('waiting', 'taken', 'closed')),
    ADD COLUMN handoff_reason text,
    ADD COLUMN handed_off_at  timestamptz,
    ADD COLUMN taken_by       uuid,
    ADD COLUMN taken_by_email text,
    ADD COLUMN closed_at      timestamptz,
    ADD COLUMN last_visitor_at timestamptz;

CREATE INDEX sessions_handoff ON sessions (workspace_id, handoff_state, handed_off_at)
    WHERE handoff_state IS NOT NULL;
