-- The role every request transaction switches to (SET LOCAL ROLE), so that row-level security holds even
-- when the pool connects as a superuser or table owner. Roles are cluster-wide: several platform databases
-- on one server share it, so creating it tolerates a concurrent creator.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${tenant_role}') THEN
        BEGIN
            CREATE ROLE ${tenant_role} NOLOGIN;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN
            NULL;
        END;
    END IF;
END
$$;

-- The connecting user must be allowed to switch to it (a superuser always is).
DO $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        EXECUTE format('GRANT ${tenant_role} TO %I', current_user);
    END IF;
END
$$;

-- The workspace of the current transaction, set by the platform with set_config('lnp.workspace_id', ..., true).
-- NULL outside a workspace transaction, so policies comparing against it match nothing.
CREATE FUNCTION current_workspace() RETURNS uuid
    LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT NULLIF(current_setting('lnp.workspace_id', true), '')::uuid $$;

GRANT USAGE ON SCHEMA lnp_core TO ${tenant_role};
GRANT EXECUTE ON FUNCTION current_workspace() TO ${tenant_role};
