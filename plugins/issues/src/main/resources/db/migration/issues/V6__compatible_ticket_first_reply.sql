-- When a ticket was first answered, for the Support home's median first reply. Looking each ticket's first reply up
-- in comments (one index probe per ticket opened in the last weeks) took most of the home's time with 10,000
-- tickets; the moment is kept on the ticket instead. A trigger keeps it, in the transaction that adds the reply,
-- so every writer (API, MCP, pages, a previous version of the plugin on another node) records it without knowing
-- the column. A reply is what the home has always counted: a public comment (not an internal note) by a member
-- (author_type user), not by an API connection or a plugin relaying the customer. Comments are never changed or
-- deleted through the platform, and tickets never deleted.
ALTER TABLE tickets ADD COLUMN first_reply_at timestamptz;

UPDATE tickets t SET first_reply_at = r.first
  FROM (SELECT ticket_id, min(created_at) AS first FROM comments
         WHERE ticket_id IS NOT NULL AND NOT internal AND author_type = 'user' GROUP BY ticket_id) r
 WHERE t.id = r.ticket_id;

-- Recomputed from the ticket's comments rather than compared with the new one, so a comment changed or removed by
-- hand (an operator's fix, a test moving history back in time) leaves the right moment too.
CREATE FUNCTION ticket_first_reply_at() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ticket uuid;
BEGIN
    FOREACH ticket IN ARRAY ARRAY[CASE WHEN TG_OP <> 'DELETE' THEN NEW.ticket_id END,
                                  CASE WHEN TG_OP <> 'INSERT' THEN OLD.ticket_id END] LOOP
        CONTINUE WHEN ticket IS NULL;
        UPDATE issues.tickets t SET first_reply_at = (
                   SELECT min(c.created_at) FROM issues.comments c
                    WHERE c.workspace_id = t.workspace_id AND c.ticket_id = t.id
                      AND NOT c.internal AND c.author_type = 'user')
         WHERE t.id = ticket;
    END LOOP;
    RETURN NULL;
END
$$;
CREATE TRIGGER ticket_first_reply_at AFTER INSERT OR DELETE OR UPDATE OF ticket_id, created_at, internal, author_type
    ON comments FOR EACH ROW EXECUTE FUNCTION ticket_first_reply_at();

-- The median reads the tickets opened since a day and their first reply from this index alone (an index-only scan).
CREATE INDEX tickets_first_reply ON tickets (workspace_id, created_at) INCLUDE (first_reply_at);
