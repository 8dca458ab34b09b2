-- Compatible: a policy every version's background work already relies on; nothing else changes.
-- The outbox's readers outside any request (event subscriptions, a subsystem fanning events out, the purge of
-- dispatched events) work across workspaces as the user the platform connects with. A superuser passes row-level
-- security anyway; this policy lets a plain owner account do the same, while requests (which switch to the tenant
-- role) still see only their own workspace. A database migrated before the webhooks had a module of their own got
-- this policy with the webhooks' tables and keeps it.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_policies
                    WHERE schemaname = 'lnp_core' AND tablename = 'outbox' AND policyname = 'platform_worker') THEN
        EXECUTE format('CREATE POLICY platform_worker ON outbox TO %I USING (true) WITH CHECK (true)', current_user);
    END IF;
END
$$;
