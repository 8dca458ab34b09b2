-- The dispatchers are woken by the node that committed events (OutboxWakes: at most one NOTIFY per interval per
-- node, after the commit), no longer by a NOTIFY inside every transaction that writes the outbox: a transaction
-- that notifies holds a cluster-wide lock from its commit until its WAL is flushed, so every write waited for the
-- previous write's flush (docs/performance.md, "Writes, session 10").
DROP TRIGGER outbox_wakes_dispatchers ON outbox;
DROP FUNCTION notify_webhook_dispatchers();
