-- Compatible: the previous version runs beside it (its queries never used the trigger); events its nodes commit
-- are then found by the dispatchers' 1 s poll instead of a wake-up.
-- The dispatchers are woken by the node that committed events (OutboxWakes: at most one NOTIFY per interval per
-- node, after the commit), no longer by a NOTIFY inside every transaction that writes the outbox: a transaction
-- that notifies holds a cluster-wide lock from its commit until its WAL is flushed, so every write waited for the
-- previous write's flush (docs/performance.md, "Writes, session 10").
DROP TRIGGER outbox_wakes_dispatchers ON outbox;
DROP FUNCTION notify_webhook_dispatchers();
