-- Compatible: a function the previous version does not call.
-- The stripe of a striped counter (such as crm.contact_counts) that this database session writes. Each pooled
-- connection of a node claims a stripe of its own when it opens (Database: a session advisory lock on one of
-- 16 slots, recorded in lnp.counter_stripe), so two connections of a node never wait on each other's counter
-- row. A session without one (more than 16 connections on the database, a tool's session) falls back to its
-- backend pid, as before this function existed.
CREATE FUNCTION counter_stripe() RETURNS smallint
    LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT coalesce(NULLIF(current_setting('lnp.counter_stripe', true), '')::smallint,
                      (pg_backend_pid() % 16)::smallint) $$;

GRANT EXECUTE ON FUNCTION counter_stripe() TO ${tenant_role};
