-- Compatible: a new table, its indexes and functions only; the previous version never reads or writes it.
--
-- Companies of a workspace: what contacts' and deals' company_id name (V7__company_references makes them point
-- here). Search works as for contacts (V1, V2): a generated search text, a trigram index, and a candidates
-- function that reaches that index under row-level security.
CREATE FUNCTION crm.company_search_text(name text, domain text, industry text, city text, country text)
    RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT crm.search_normalize(concat_ws(' ', name, domain, industry, city, country))
$$;

CREATE TABLE companies (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL,
    name          text NOT NULL,
    domain        text,
    website       text,
    industry      text,
    employees     integer CHECK (employees >= 0),
    phone         text,
    address_line1 text,
    address_line2 text,
    city          text,
    state         text,
    postal_code   text,
    country       text,
    notes         text,
    tags          text[] NOT NULL DEFAULT '{}',
    custom_fields jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(custom_fields) = 'object'),
    external_id   text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    search_text   text NOT NULL GENERATED ALWAYS AS (
                      crm.company_search_text(name, domain, industry, city, country)
                  ) STORED,
    -- Lets contacts and deals reference a company of their own workspace only (V7).
    UNIQUE (workspace_id, id)
);

-- A domain names one company of a workspace, whatever its case; companies without a domain are not compared.
CREATE UNIQUE INDEX companies_domain_unique ON companies (workspace_id, lower(domain)) WHERE domain IS NOT NULL;
-- List order (newest first, id breaks ties): pages are read off this index, never sorted.
CREATE INDEX companies_recent ON companies (workspace_id, created_at DESC, id DESC);

DO $$
DECLARE
    trgm_schema text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                          WHERE e.extname = 'pg_trgm');
BEGIN
    EXECUTE format('CREATE INDEX companies_search_trgm ON companies USING gin (search_text %I.gin_trgm_ops)',
                   trgm_schema);
END
$$;

ALTER TABLE companies ENABLE ROW LEVEL SECURITY;
ALTER TABLE companies FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON companies
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());

-- The same reason and the same guarantees as crm.contact_search_candidates (V2__search_candidates): LIKE is not
-- leakproof, so only a function run as its owner reaches the trigram index; it applies the policies' workspace
-- predicate itself and returns ids only, which the caller reads under row-level security.
CREATE FUNCTION crm.company_search_candidates(words text[]) RETURNS SETOF uuid
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
    RETURN QUERY EXECUTE
        'SELECT c.id FROM crm.companies c WHERE c.workspace_id = lnp_core.current_workspace()' || conditions
        USING words;
END
$$;

REVOKE ALL ON FUNCTION crm.company_search_candidates(text[]) FROM PUBLIC;
