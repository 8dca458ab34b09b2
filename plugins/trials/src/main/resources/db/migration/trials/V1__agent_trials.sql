-- Agent trials. The request rows exist before any workspace, so they carry no workspace_id and no tenant policy;
-- they are protected instead by a policy that admits only transactions that belong to NO workspace
-- (PluginContext.outsideWorkspace, current_workspace() IS NULL): no request handler of any workspace, in this or
-- any other plugin, can read or write them. Secrets in them are hashes (request token, approval link); the
-- trial's key is never stored (it is issued when the agent first collects it).

CREATE TABLE requests (
    id                 uuid PRIMARY KEY,
    state              text NOT NULL CHECK (state IN ('pending', 'approved', 'denied', 'expired', 'failed', 'revoked')),
    owner_email        text NOT NULL,
    owner_email_key    text NOT NULL,              -- lower-cased, for limits and lookups
    workspace_name     text NOT NULL,
    agent_name         text NOT NULL,
    agent_vendor       text NOT NULL,
    agent_version      text NOT NULL,
    purpose            text NOT NULL,
    binding_code       text NOT NULL,
    token_hash         bytea NOT NULL UNIQUE,      -- SHA-256 of the request token (status endpoint bearer)
    approval_hash      bytea NOT NULL UNIQUE,      -- SHA-256 of the secret in the mailed approval link
    challenge_id       uuid NOT NULL UNIQUE,
    client_address     text,
    created_at         timestamptz NOT NULL,
    expires_at         timestamptz NOT NULL,       -- end of the approval window (24 h)
    decided_at         timestamptz,
    reason             text,                       -- why a terminal state was reached
    last_poll_at       timestamptz,
    next_poll_at       timestamptz,
    polls              integer NOT NULL DEFAULT 0,
    trial_workspace_id uuid,                       -- set on approval
    connection_id      uuid,                       -- the trial key's connection, set when the key is collected
    key_delivered_at   timestamptz,
    key_expires_at     timestamptz,
    trial_ends_at      timestamptz,                -- approved trials expire then (7 days after issue)
    approving_since    timestamptz                 -- the approval in progress (workspace and sample data)
);
CREATE INDEX requests_pending_owner ON requests (owner_email_key) WHERE state = 'pending';
CREATE INDEX requests_sweep_pending ON requests (expires_at) WHERE state = 'pending';
CREATE INDEX requests_sweep_approved ON requests (trial_ends_at) WHERE state = 'approved';
CREATE INDEX requests_workspace ON requests (trial_workspace_id);

-- Spent challenges: single use across every node. Kept until a day after they expire.
CREATE TABLE spent_challenges (
    id         uuid PRIMARY KEY,
    spent_at   timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);

-- The HMAC secret challenges are signed with: created once, the same on every node.
CREATE TABLE secrets (
    name       text PRIMARY KEY,
    value      bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Abuse limits, counted cluster-wide: one row per subject (e.g. owner:<address>, ip:<address>) and window.
CREATE TABLE limit_windows (
    subject      text NOT NULL,
    window_start timestamptz NOT NULL,
    hits         integer NOT NULL,
    PRIMARY KEY (subject, window_start)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['requests', 'spent_challenges', 'secrets', 'limit_windows'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY outside_workspaces ON %I USING (lnp_core.current_workspace() IS NULL) '
                       'WITH CHECK (lnp_core.current_workspace() IS NULL)', t);
    END LOOP;
END
$$;
