-- People signing in to the console. A person is an e-mail address; they may be a user of several workspaces
-- (users are per workspace) and choose one after signing in. Only hashes of secrets are stored.

-- One-time sign-in links. browser_hash is the hash of the pre-sign-in cookie of the browser that asked for the
-- link: the link signs in only that browser. Invitations (browser_hash NULL) are sent to someone else's browser.
CREATE TABLE sign_in_links (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    token_hash   bytea NOT NULL UNIQUE,
    browser_hash bytea,
    email        text NOT NULL,
    purpose      text NOT NULL CHECK (purpose IN ('sign_in', 'invitation')),
    workspace_id uuid REFERENCES workspaces (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz,
    CHECK (purpose = 'invitation' OR browser_hash IS NOT NULL)
);
CREATE INDEX sign_in_links_expires ON sign_in_links (expires_at);

-- Sign-in requests per address and per client IP, counted over a sliding window; in the database so that the
-- limit holds across every node of the deployment.
CREATE TABLE sign_in_attempts (
    bucket text NOT NULL,
    at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_attempts_bucket ON sign_in_attempts (bucket, at);

-- Console sessions. user_id is the workspace user the person acts as (NULL until they chose a workspace).
CREATE TABLE console_sessions (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    token_hash   bytea NOT NULL UNIQUE,
    csrf_token   text NOT NULL,
    email        text NOT NULL,
    user_id      uuid REFERENCES users (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    revoked_at   timestamptz,
    user_agent   text,
    client_ip    text
);
CREATE INDEX console_sessions_email ON console_sessions (lower(email), created_at DESC);

-- Changes made in the console or through the management routes: who, what, when.
CREATE TABLE console_activity (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at            timestamptz NOT NULL DEFAULT now(),
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    actor_user_id uuid,
    actor_email   text NOT NULL,
    action        text NOT NULL,
    target        text,
    detail        text
);
CREATE INDEX console_activity_workspace ON console_activity (workspace_id, at DESC, id DESC);
