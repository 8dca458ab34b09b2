-- Deals are found by their title from the application's search box: accent- and case-insensitive, as contacts and
-- companies are (V1, V6), served by a trigram index on the normalised title. An expression index, not a generated
-- column, so that adding it does not rewrite the table and the previous version keeps working beside it.
DO $$
DECLARE
    trgm_schema text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                          WHERE e.extname = 'pg_trgm');
BEGIN
    EXECUTE format('CREATE INDEX IF NOT EXISTS deals_title_search_trgm ON deals USING gin '
                   || '(crm.search_normalize(title) %I.gin_trgm_ops)', trgm_schema);
END
$$;

-- The same reason and the same guarantees as crm.contact_search_candidates (V2__search_candidates): LIKE is not
-- leakproof, so only a function run as its owner reaches the trigram index; it applies the policies' workspace
-- predicate itself and returns ids only, which the caller reads under row-level security.
CREATE OR REPLACE FUNCTION crm.deal_search_candidates(words text[]) RETURNS SETOF uuid
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    conditions text := '';
BEGIN
    FOR i IN 1 .. coalesce(array_length(words, 1), 0) LOOP
        conditions := conditions
            || format(' AND crm.search_normalize(d.title) LIKE ''%%'' || crm.search_normalize($1[%s]) || ''%%''', i);
    END LOOP;
    RETURN QUERY EXECUTE
        'SELECT d.id FROM crm.deals d WHERE d.workspace_id = lnp_core.current_workspace()' || conditions
        USING words;
END
$$;

REVOKE ALL ON FUNCTION crm.deal_search_candidates(text[]) FROM PUBLIC;
