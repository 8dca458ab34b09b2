-- Why this function exists: under row-level security PostgreSQL only uses a condition as an index condition
-- when its operator is LEAKPROOF, and LIKE (textlike) is not. A search run directly as the request role
-- therefore never uses contacts_search_trgm and scans the workspace's rows instead.
--
-- This function runs the trigram part of a search as its owner (the migration user: a superuser or table
-- owner, for whom these policies do not hide rows), applying the very same workspace predicate as the
-- policies itself. It returns only ids; callers read the rows under row-level security and their own
-- workspace filter, so tenancy is still enforced twice on everything returned. If the owner is itself
-- subject to row-level security the results are the same, only found without the index.
--
-- words: search words already escaped for LIKE; every one must occur in the contact's search text.
CREATE FUNCTION crm.contact_search_candidates(words text[]) RETURNS SETOF uuid
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    conditions text := '';
BEGIN
    FOR i IN 1 .. coalesce(array_length(words, 1), 0) LOOP
        conditions := conditions
            || format(' AND c.search_text LIKE ''%%'' || crm.search_normalize($1[%s]) || ''%%''', i);
    END LOOP;
    -- Executed with the words as parameters, so each execution is planned with the actual patterns.
    RETURN QUERY EXECUTE
        'SELECT c.id FROM crm.contacts c WHERE c.workspace_id = lnp_core.current_workspace()' || conditions
        USING words;
END
$$;

REVOKE ALL ON FUNCTION crm.contact_search_candidates(text[]) FROM PUBLIC;
