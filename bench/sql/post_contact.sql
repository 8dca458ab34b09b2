-- The SQL of one POST /api/v1/crm/contacts request transaction (bench/lua/contact_body.lua's fields), for
-- pgbench: the database's own cost of the write without the JVM, the admission statement or the audit batch.
-- pgbench -n -M simple -c 16 -j 2 -T 15 -D ws="'<workspace id>'" (quoted: simple mode pastes the text) -f bench/sql/post_contact.sql DATABASE
-- Since session 10: the event is a step of the insert, its payload built by PostgreSQL (EntityTable.payloadSql).
BEGIN;
SELECT set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true);
WITH inserted AS (INSERT INTO crm.contacts (workspace_id, email, first_name, last_name, phone, job_title, company_name, contact_type, status, tags)
  VALUES (CAST(:ws AS uuid), CAST(gen_random_uuid() AS text) || '@pgbench.example', 'Zoë', 'Müller', '+49 30 1234567', 'Data Analyst', 'Acme Robotics', 'lead', 'active', '{loadtest}') RETURNING *),
follow_up AS (INSERT INTO crm.contact_counts (workspace_id, status, stripe, n) SELECT workspace_id, status, lnp_core.counter_stripe(), 1 FROM inserted
  ON CONFLICT (workspace_id, status, stripe) DO UPDATE SET n = contact_counts.n + EXCLUDED.n),
event AS (INSERT INTO lnp_core.outbox (workspace_id, event_name, payload) SELECT CAST(:ws AS uuid), CAST('crm.contact.created' AS text), jsonb_build_object('id', id, 'email', email, 'first_name', first_name, 'last_name', last_name, 'phone', phone, 'job_title', job_title, 'company_id', company_id, 'company_name', company_name, 'contact_type', contact_type, 'status', status, 'lead_source', lead_source, 'industry', industry, 'notes', notes, 'tags', coalesce(tags, CAST('{}' AS text[])), 'custom_fields', coalesce(custom_fields, CAST('{}' AS jsonb)), 'external_id', external_id, 'country', country, 'state', state, 'city', city, 'social_professional', social_professional, 'created_at', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || rtrim(rtrim(to_char(created_at, '.US'), '0'), '.') || 'Z', 'updated_at', to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || rtrim(rtrim(to_char(updated_at, '.US'), '0'), '.') || 'Z') FROM inserted RETURNING octet_length(CAST(payload AS text)) AS lnp_event_bytes)
SELECT inserted.*, (SELECT max(lnp_event_bytes) FROM event) AS lnp_event_bytes FROM inserted;
COMMIT;
