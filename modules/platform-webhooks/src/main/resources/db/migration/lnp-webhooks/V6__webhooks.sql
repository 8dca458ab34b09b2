-- Taken over from the core's history, where this was V6 before webhooks had a module of their own: the tables stay
-- in lnp_core (every version finds them there), so every name is qualified (Flyway runs this with the search path
-- of this module's own history schema). The outbox's own policy for the platform's user is the core's (its V13_38).
-- Webhook subscriptions, their signing secrets, the deliveries fanned out of the outbox, every attempt, and
-- notices for workspace owners. The retry schedule lives here (next_attempt_at), so a restart, a second node
-- or a dead node loses nothing: a claim is a lease in the row, taken with FOR UPDATE SKIP LOCKED.

CREATE TABLE lnp_core.webhook_subscriptions (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id    uuid NOT NULL REFERENCES lnp_core.workspaces (id) ON DELETE CASCADE,
    url             text NOT NULL CHECK (length(url) <= 2048),
    -- Canonical event names and wildcards ('crm.*', '*'), as validated against the registry's catalog.
    events          text[] NOT NULL CHECK (cardinality(events) >= 1),
    description     text CHECK (length(description) <= 500),
    enabled         boolean NOT NULL DEFAULT true,
    -- Why the platform switched it off ('failing'); NULL when enabled or switched off by a person.
    disabled_reason text,
    -- The first failed attempt since the last successful one; a success clears it.
    failing_since   timestamptz,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
CREATE INDEX webhook_subscriptions_workspace ON lnp_core.webhook_subscriptions (workspace_id, created_at DESC, id);

-- The newest secret signs; a rotated one keeps signing until expires_at (the overlap).
CREATE TABLE lnp_core.webhook_secrets (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    subscription_id uuid NOT NULL REFERENCES lnp_core.webhook_subscriptions (id) ON DELETE CASCADE,
    workspace_id    uuid NOT NULL,
    secret          text NOT NULL,
    created_at      timestamptz NOT NULL,
    expires_at      timestamptz
);
CREATE INDEX webhook_secrets_subscription ON lnp_core.webhook_secrets (subscription_id, created_at DESC);

-- One row per (event, subscription): its id is the X-Service-Delivery-Id of every attempt.
CREATE TABLE lnp_core.webhook_deliveries (
    id               uuid PRIMARY KEY,
    workspace_id     uuid NOT NULL,
    subscription_id  uuid NOT NULL REFERENCES lnp_core.webhook_subscriptions (id) ON DELETE CASCADE,
    event_id         uuid NOT NULL REFERENCES lnp_core.outbox (id) ON DELETE CASCADE,
    event_name       text NOT NULL,
    kind             text NOT NULL DEFAULT 'event' CHECK (kind IN ('event', 'test')),
    state            text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts         integer NOT NULL DEFAULT 0,
    -- A round is the scheduled series of attempts (about 10 in 24 h); a redelivery starts a new one.
    round_attempts   integer NOT NULL DEFAULT 0,
    round_started_at timestamptz NOT NULL,
    next_attempt_at  timestamptz,
    lease_owner      text,
    lease_token      uuid,
    lease_until      timestamptz,
    last_attempt_at  timestamptz,
    last_status      integer,
    last_error       text,
    created_at       timestamptz NOT NULL,
    completed_at     timestamptz,
    UNIQUE (event_id, subscription_id)
);
-- The claim walks the subscriptions with pending deliveries, then takes each one's earliest due ones.
CREATE INDEX webhook_deliveries_pending ON lnp_core.webhook_deliveries (subscription_id, next_attempt_at)
    WHERE state = 'pending';
CREATE INDEX webhook_deliveries_pending_tests ON lnp_core.webhook_deliveries (next_attempt_at)
    WHERE state = 'pending' AND kind = 'test';
CREATE INDEX webhook_deliveries_subscription ON lnp_core.webhook_deliveries (subscription_id, created_at DESC, id);
CREATE INDEX webhook_deliveries_created ON lnp_core.webhook_deliveries (created_at);

CREATE TABLE lnp_core.webhook_attempts (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id        uuid NOT NULL REFERENCES lnp_core.webhook_deliveries (id) ON DELETE CASCADE,
    workspace_id       uuid NOT NULL,
    attempt            integer NOT NULL,
    node               text NOT NULL,
    started_at         timestamptz NOT NULL,
    duration_ms        integer NOT NULL,
    status_code        integer,
    outcome            text NOT NULL CHECK (outcome IN ('delivered', 'retry', 'failed')),
    error              text,
    response_body      text,
    response_truncated boolean NOT NULL DEFAULT false
);
CREATE INDEX webhook_attempts_delivery ON lnp_core.webhook_attempts (delivery_id, id);

-- Messages for a workspace's owner (e.g. a subscription switched off); e-mailed once e-mail exists.
CREATE TABLE lnp_core.notices (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL REFERENCES lnp_core.workspaces (id) ON DELETE CASCADE,
    kind         text NOT NULL,
    subject_id   uuid,
    recipient    text NOT NULL,
    message      text NOT NULL,
    created_at   timestamptz NOT NULL,
    emailed_at   timestamptz
);
CREATE INDEX notices_workspace ON lnp_core.notices (workspace_id, created_at DESC);

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['webhook_subscriptions', 'webhook_secrets', 'webhook_deliveries', 'webhook_attempts',
                             'notices'] LOOP
        EXECUTE format('ALTER TABLE lnp_core.%I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE lnp_core.%I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant_isolation ON lnp_core.%I USING (workspace_id = lnp_core.current_workspace()) '
                       'WITH CHECK (workspace_id = lnp_core.current_workspace())', t);
    END LOOP;
END
$$;

-- The dispatcher works across workspaces, outside any request, as the user the platform connects with (the
-- outbox's own such policy is the core's).
-- A superuser passes row-level security anyway; these policies let a plain owner account do the same,
-- while requests (which switch to the tenant role) still see only their own workspace.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['webhook_subscriptions', 'webhook_secrets', 'webhook_deliveries', 'webhook_attempts',
                             'notices'] LOOP
        EXECUTE format('CREATE POLICY platform_worker ON lnp_core.%I TO %I USING (true) WITH CHECK (true)', t, current_user);
    END LOOP;
END
$$;

GRANT SELECT, INSERT, UPDATE, DELETE ON lnp_core.webhook_subscriptions, lnp_core.webhook_secrets TO ${tenant_role};
GRANT SELECT, INSERT, UPDATE ON lnp_core.webhook_deliveries TO ${tenant_role};
GRANT SELECT ON lnp_core.webhook_attempts, lnp_core.notices TO ${tenant_role};

-- Wakes the dispatchers when events commit (NOTIFY is delivered at commit, once per transaction).
CREATE FUNCTION lnp_core.notify_webhook_dispatchers() RETURNS trigger
    LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM pg_notify('lnp_webhooks', '');
    RETURN NULL;
END
$$;
CREATE TRIGGER outbox_wakes_dispatchers AFTER INSERT ON lnp_core.outbox
    FOR EACH STATEMENT EXECUTE FUNCTION lnp_core.notify_webhook_dispatchers();
