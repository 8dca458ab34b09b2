-- The MCP endpoint's OAuth 2.1 authorization server: registered clients, the grants people consented to, the
-- authorization codes and the tokens. Secrets are stored as SHA-256 hashes only. The tables belong to no tenant:
-- the requests that read them (the token endpoint, the kernel's admission of a token) know no workspace yet, so
-- they are read as the platform's own role and the tenant role gets nothing here.
CREATE SCHEMA IF NOT EXISTS lnp_oauth;

CREATE TABLE lnp_oauth.clients (
    client_id     text PRIMARY KEY,
    client_name   text NOT NULL CHECK (length(client_name) BETWEEN 1 AND 200),
    redirect_uris text[] NOT NULL CHECK (cardinality(redirect_uris) BETWEEN 1 AND 10),
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- One consent: who (the person's user in the chosen workspace), for which client and resource, with what. The
-- connection (and its key, whose hash the tokens stand for) is created when the code is exchanged, so a consent
-- whose code is never used leaves no connection behind.
CREATE TABLE lnp_oauth.grants (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    client_id      text NOT NULL REFERENCES lnp_oauth.clients (client_id) ON DELETE CASCADE,
    workspace_id   uuid NOT NULL REFERENCES lnp_core.workspaces (id) ON DELETE CASCADE,
    user_id        uuid NOT NULL REFERENCES lnp_core.users (id) ON DELETE CASCADE,
    resource       text NOT NULL,
    scopes         text[] NOT NULL,
    tools          text[],
    connection_id  uuid,
    key_hash       bytea,
    created_at     timestamptz NOT NULL DEFAULT now(),
    activated_at   timestamptz,
    revoked_at     timestamptz,
    revoked_reason text
);
CREATE INDEX grants_by_workspace ON lnp_oauth.grants (workspace_id, created_at DESC);

CREATE TABLE lnp_oauth.codes (
    code_hash      bytea PRIMARY KEY,
    grant_id       uuid NOT NULL REFERENCES lnp_oauth.grants (id) ON DELETE CASCADE,
    redirect_uri   text NOT NULL,
    code_challenge text NOT NULL,
    expires_at     timestamptz NOT NULL,
    used_at        timestamptz
);

-- Access tokens and refresh tokens. A refresh token is used once: its use is recorded, and a second use of it
-- revokes the grant (OAuth 2.1 §4.3.1).
CREATE TABLE lnp_oauth.tokens (
    token_hash bytea PRIMARY KEY,
    grant_id   uuid NOT NULL REFERENCES lnp_oauth.grants (id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('access', 'refresh')),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX tokens_by_grant ON lnp_oauth.tokens (grant_id);
