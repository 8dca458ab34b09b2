-- Contact search is accent- and case-insensitive and served by a trigram index. Both extensions are contrib
-- modules, "trusted" since PostgreSQL 13 (a database owner may create them). An extension lives once per
-- database: if another plugin installed one already (in whatever schema), it is reused, so everything below
-- names the schema it actually lives in.
CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public;
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;

-- unaccent() is only STABLE (its dictionary could change), so it cannot feed a generated column or an index.
-- Naming the dictionary explicitly makes the result depend on the arguments alone: the usual immutable wrapper.
DO $$
DECLARE
    unaccent_schema text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                              WHERE e.extname = 'unaccent');
BEGIN
    EXECUTE format($f$
        CREATE FUNCTION crm.search_normalize(value text) RETURNS text
            LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
        AS $body$ SELECT lower(%1$I.unaccent(%2$L::regdictionary, value)) $body$
    $f$, unaccent_schema, unaccent_schema || '.unaccent');
END
$$;

-- Function bodies resolve names with the caller's search_path, which at request time does not include this
-- schema: hence the qualified names.
-- The text a contact is found by: every searchable field, separated by spaces so that a search word (which
-- never contains a space) cannot match across two fields.
CREATE FUNCTION crm.contact_search_text(first_name text, last_name text, email text, company_name text,
                                    job_title text, phone text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT crm.search_normalize(concat_ws(' ', first_name, last_name, email, company_name, job_title, phone))
$$;

CREATE TABLE contacts (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id        uuid NOT NULL,
    email               text NOT NULL,
    first_name          text,
    last_name           text,
    phone               text,
    job_title           text,
    company_id          uuid,
    company_name        text,
    contact_type        text CHECK (contact_type IN ('new', 'engaged', 'qualified', 'customer', 'inactive', 'lead',
                                                     'prospect', 'partner', 'vendor')),
    status              text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'blocked', 'pending')),
    lead_source         text,
    industry            text,
    notes               text,
    tags                text[] NOT NULL DEFAULT '{}',
    custom_fields       jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(custom_fields) = 'object'),
    external_id         text,
    country             text,
    state               text,
    city                text,
    social_professional text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    search_text         text NOT NULL GENERATED ALWAYS AS (
                            crm.contact_search_text(first_name, last_name, email, company_name, job_title, phone)
                        ) STORED,
    -- Lets deals reference a contact of their own workspace only (composite foreign key below).
    UNIQUE (workspace_id, id)
);

-- One contact per email address in a workspace, whatever its case.
CREATE UNIQUE INDEX contacts_email_unique ON contacts (workspace_id, lower(email));
-- List order (newest first, id breaks ties): pages are read off these indexes, never sorted.
CREATE INDEX contacts_recent ON contacts (workspace_id, created_at DESC, id DESC);
CREATE INDEX contacts_status_recent ON contacts (workspace_id, status, created_at DESC, id DESC);

DO $$
DECLARE
    trgm_schema text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                          WHERE e.extname = 'pg_trgm');
BEGIN
    EXECUTE format('CREATE INDEX contacts_search_trgm ON contacts USING gin (search_text %I.gin_trgm_ops)',
                   trgm_schema);
END
$$;

-- Exact list totals without counting rows: one counter per workspace and status, changed in the same
-- transaction as the contact rows it counts. Unfiltered and status-filtered totals are sums of at most four rows.
CREATE TABLE contact_counts (
    workspace_id uuid   NOT NULL,
    status       text   NOT NULL,
    n            bigint NOT NULL CHECK (n >= 0),
    PRIMARY KEY (workspace_id, status)
);

CREATE TABLE deals (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id        uuid NOT NULL,
    title               text NOT NULL,
    value               numeric CHECK (value >= 0),
    currency            text CHECK (currency ~ '^[A-Z]{3}$'),
    stage               text NOT NULL DEFAULT 'discovery'
                        CHECK (stage IN ('discovery', 'qualified', 'proposal', 'negotiation', 'closed_won', 'closed_lost')),
    status              text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'on_hold', 'closed_won', 'closed_lost')),
    contact_id          uuid,
    company_id          uuid,
    probability         numeric CHECK (probability BETWEEN 0 AND 100),
    expected_close_date date,
    description         text,
    assigned_to         uuid,
    actual_close_date   date,
    lost_reason         text,
    source              text,
    tags                text[] NOT NULL DEFAULT '{}',
    custom_fields       jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(custom_fields) = 'object'),
    external_id         text,
    price_book_id       uuid,
    package_id          uuid,
    rep_id              uuid,
    developer_id        uuid,
    commission_pct      numeric CHECK (commission_pct BETWEEN 0 AND 100),
    territory           text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    -- The rule docs/crm.md states: a closed stage and a closed status go together.
    CONSTRAINT deals_stage_matches_status CHECK (
        (status IN ('closed_won', 'closed_lost') AND stage = status)
        OR (status IN ('open', 'on_hold') AND stage NOT IN ('closed_won', 'closed_lost'))),
    -- The workspace is part of the key, so a deal can never point at another workspace's contact; deleting
    -- the contact keeps the deal and clears only the reference.
    CONSTRAINT deals_contact FOREIGN KEY (workspace_id, contact_id)
        REFERENCES contacts (workspace_id, id) ON DELETE SET NULL (contact_id)
);

CREATE INDEX deals_recent ON deals (workspace_id, created_at DESC, id DESC);
CREATE INDEX deals_status_recent ON deals (workspace_id, status, created_at DESC, id DESC);
CREATE INDEX deals_contact ON deals (workspace_id, contact_id) WHERE contact_id IS NOT NULL;
CREATE INDEX deals_company ON deals (workspace_id, company_id) WHERE company_id IS NOT NULL;
CREATE INDEX deals_assignee ON deals (workspace_id, assigned_to) WHERE assigned_to IS NOT NULL;

-- Workspace-owned tables must carry row-level security: the platform refuses to start otherwise.
ALTER TABLE contacts ENABLE ROW LEVEL SECURITY;
ALTER TABLE contacts FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON contacts
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());

ALTER TABLE contact_counts ENABLE ROW LEVEL SECURITY;
ALTER TABLE contact_counts FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON contact_counts
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());

ALTER TABLE deals ENABLE ROW LEVEL SECURITY;
ALTER TABLE deals FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON deals
    USING (workspace_id = lnp_core.current_workspace())
    WITH CHECK (workspace_id = lnp_core.current_workspace());
