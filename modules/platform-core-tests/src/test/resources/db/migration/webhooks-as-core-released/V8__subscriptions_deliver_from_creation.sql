-- A subscription receives the events that occur after it exists, never older ones still waiting in the outbox
-- (a dispatcher that was behind, stopped, or an upgrade that found a backlog of events written before webhooks
-- existed). Both sides use the database's clock: the outbox's occurred_at is the writing transaction's now(), and
-- so is this column, so no node's clock takes part in the comparison.
ALTER TABLE webhook_subscriptions ADD COLUMN delivers_from timestamptz NOT NULL DEFAULT now();
