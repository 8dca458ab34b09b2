-- Compatible: an index only; the previous version reads and writes the outbox as before.
--
-- In-process event subscribers (the chatbot's replies to comments) read the outbox by event name twice a second.
-- Without an index on the name, each read scanned the whole outbox, which keeps every event for the webhook
-- retention: on a database of 435,000 events, 124 ms of two parallel workers when idle and up to 2.7 s under load,
-- twice a second on every node (docs/performance.md, "The event subscriptions' full scans, session 29").
-- Building it takes about half a second per 400,000 outbox rows, during which writes to the outbox wait.
CREATE INDEX IF NOT EXISTS outbox_event_seq ON outbox (event_name, seq);
