-- Compatible: the previous version runs beside it. Its queries read none of this, and its writes fire the triggers
-- like any other, so the versions stay right while both run.
--
-- A request admitted from a node's cache (AdmissionCache) is checked again in its transaction's first statement.
-- That check used to compute the admission's fingerprint again: an md5 of the key's row joined with its
-- connection, workspace, quotas and delegated user, about a tenth of PostgreSQL's work for a page-1 read. Now every
-- change to a row an admission is made of adds one to its workspace's admission version, in the transaction that
-- changes it, and the check reads that number by its primary key (docs/performance.md, "Admission by version,
-- session 21"). A change commits with its new version, so a revocation still applies to the next request on every
-- node. Inserts change no admission that exists (a new key or connection is admitted when first used), except a
-- workspace quota's, which is part of every admission of its workspace.
CREATE TABLE admission_versions (
    -- No foreign key: the row outlives its workspace, so a workspace's number never starts again from 0.
    workspace_id uuid PRIMARY KEY,
    version      bigint NOT NULL
);

-- Updates compare the whole row but for the columns that change without changing any admission: a key's last use
-- (touched by the admission statement itself) and a connection's tool-call count (taken by every call of a key
-- with a budget). Any other column, including one added later, counts as a change: a needless re-admission costs
-- one statement, a missed one would let a revoked key through.
-- The workspace a row of one of the tables below belongs to (a key's through its connection: null when the
-- connection is being deleted with it, whose own deletion counts).
CREATE FUNCTION admission_workspace(table_name text, changed jsonb) RETURNS uuid
    LANGUAGE sql STABLE SET search_path = lnp_core, pg_temp
AS $$
    SELECT CASE table_name
               WHEN 'workspaces' THEN (changed ->> 'id')::uuid
               WHEN 'api_keys' THEN (SELECT c.workspace_id FROM lnp_core.connections c
                                      WHERE c.id = (changed ->> 'connection_id')::uuid)
               ELSE (changed ->> 'workspace_id')::uuid END
$$;

CREATE FUNCTION admission_version_bump(workspace uuid) RETURNS void
    LANGUAGE sql SET search_path = lnp_core, pg_temp
AS $$
    INSERT INTO lnp_core.admission_versions AS v (workspace_id, version)
    SELECT workspace, 1 WHERE workspace IS NOT NULL
    ON CONFLICT (workspace_id) DO UPDATE SET version = v.version + 1
$$;

CREATE FUNCTION admission_changed() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = lnp_core, pg_temp
AS $$
DECLARE
    before uuid := CASE WHEN TG_OP <> 'INSERT' THEN admission_workspace(TG_TABLE_NAME, to_jsonb(OLD)) END;
    after uuid := CASE WHEN TG_OP <> 'DELETE' THEN admission_workspace(TG_TABLE_NAME, to_jsonb(NEW)) END;
BEGIN
    PERFORM admission_version_bump(before);
    IF after IS DISTINCT FROM before THEN
        PERFORM admission_version_bump(after);
    END IF;
    RETURN NULL;
END
$$;

REVOKE ALL ON FUNCTION admission_workspace(text, jsonb), admission_version_bump(uuid), admission_changed() FROM PUBLIC;

CREATE TRIGGER admission_changed AFTER UPDATE ON workspaces FOR EACH ROW
    WHEN (to_jsonb(OLD) IS DISTINCT FROM to_jsonb(NEW)) EXECUTE FUNCTION admission_changed();
CREATE TRIGGER admission_removed AFTER DELETE ON workspaces FOR EACH ROW EXECUTE FUNCTION admission_changed();

CREATE TRIGGER admission_changed AFTER UPDATE ON connections FOR EACH ROW
    WHEN (to_jsonb(OLD) - 'tool_calls_used' IS DISTINCT FROM to_jsonb(NEW) - 'tool_calls_used')
    EXECUTE FUNCTION admission_changed();
CREATE TRIGGER admission_removed AFTER DELETE ON connections FOR EACH ROW EXECUTE FUNCTION admission_changed();

CREATE TRIGGER admission_changed AFTER UPDATE ON api_keys FOR EACH ROW
    WHEN (to_jsonb(OLD) - 'last_used_at' IS DISTINCT FROM to_jsonb(NEW) - 'last_used_at')
    EXECUTE FUNCTION admission_changed();
CREATE TRIGGER admission_removed AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION admission_changed();

CREATE TRIGGER admission_changed AFTER UPDATE ON users FOR EACH ROW
    WHEN (to_jsonb(OLD) IS DISTINCT FROM to_jsonb(NEW)) EXECUTE FUNCTION admission_changed();
CREATE TRIGGER admission_removed AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION admission_changed();

CREATE TRIGGER admission_changed AFTER INSERT OR UPDATE OR DELETE ON workspace_quotas FOR EACH ROW
    EXECUTE FUNCTION admission_changed();
