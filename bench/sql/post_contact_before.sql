-- The SQL of one POST /api/v1/crm/contacts request transaction (bench/lua/contact_body.lua's fields), for
-- pgbench: the database's own cost of the write without the JVM, the admission statement or the audit batch.
-- pgbench -n -M simple -c 16 -j 2 -T 15 -D ws="'<workspace id>'" (quoted: simple mode pastes the text) -f bench/sql/post_contact_before.sql DATABASE
-- Before session 10: the event is a statement of its own, its payload built in the JVM.
BEGIN;
SELECT set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true);
WITH inserted AS (INSERT INTO crm.contacts (workspace_id, email, first_name, last_name, phone, job_title, company_name, contact_type, status, tags)
  VALUES (CAST(:ws AS uuid), CAST(gen_random_uuid() AS text) || '@pgbench.example', 'Zoë', 'Müller', '+49 30 1234567', 'Data Analyst', 'Acme Robotics', 'lead', 'active', '{loadtest}') RETURNING *),
follow_up AS (INSERT INTO crm.contact_counts (workspace_id, status, stripe, n) SELECT workspace_id, status, pg_backend_pid() % 16, 1 FROM inserted
  ON CONFLICT (workspace_id, status, stripe) DO UPDATE SET n = contact_counts.n + EXCLUDED.n)
SELECT * FROM inserted;
INSERT INTO lnp_core.outbox (workspace_id, event_name, payload) VALUES (CAST(:ws AS uuid), 'crm.contact.created', CAST('{"id":"4f1c2d3e-0000-4000-8000-000000000000","email":"x@pgbench.example","first_name":"Zoë","last_name":"Müller","phone":"+49 30 1234567","job_title":"Data Analyst","company_id":null,"company_name":"Acme Robotics","contact_type":"lead","status":"active","lead_source":null,"industry":null,"notes":null,"tags":["loadtest"],"custom_fields":{},"external_id":null,"country":null,"state":null,"city":null,"social_professional":null,"created_at":"2026-11-23T21:18:53.123456Z","updated_at":"2026-11-23T21:18:53.123456Z"}' AS jsonb));
COMMIT;
