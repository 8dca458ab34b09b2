-- The modules (plugin ids) the current transaction's workspace switched off, for code running as the tenant role
-- (the webhook event catalog lists and accepts only events of modules that are on). A definer's function, so the
-- role reads this one column of its own workspace and nothing else of lnp_core.workspaces.
CREATE FUNCTION current_workspace_disabled_modules() RETURNS text[]
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = lnp_core, pg_temp
AS $$
    SELECT coalesce((SELECT disabled_modules FROM lnp_core.workspaces WHERE id = lnp_core.current_workspace()),
                    '{}'::text[])
$$;

REVOKE ALL ON FUNCTION current_workspace_disabled_modules() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION current_workspace_disabled_modules() TO ${tenant_role};
