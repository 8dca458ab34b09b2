-- Sign-in with the deployment's OpenID Connect provider: the console's own tables, in its own schema (lnp_web, where
-- Flyway keeps this module's history too). Every name is qualified. New tables only, so an older node keeps working.

-- A sign-in begun at the provider and not yet finished: the state, the nonce and the PKCE verifier of one
-- authorization request, bound to the browser that began it. Only hashes of the state and of the browser's
-- pre-sign-in cookie are kept; the verifier and the nonce must be sent as they are, so they are kept as they are,
-- for ten minutes, and used once.
CREATE TABLE lnp_web.oidc_sign_ins (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    state_hash    bytea NOT NULL UNIQUE,
    browser_hash  bytea NOT NULL,
    nonce         text NOT NULL,
    code_verifier text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL,
    used_at       timestamptz
);
CREATE INDEX oidc_sign_ins_expiry ON lnp_web.oidc_sign_ins (expires_at);

-- A console session that began at the provider, with the ID token that signing out hands back to it
-- (id_token_hint). A session without a row here began with an e-mailed link.
CREATE TABLE lnp_web.oidc_sessions (
    session_id uuid PRIMARY KEY REFERENCES lnp_core.console_sessions (id) ON DELETE CASCADE,
    id_token   text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A workspace's rules for signing in: which addresses the provider may sign in, whether a first sign-in creates
-- the user (and with which role), which provider groups give which role, and whether e-mailed links still work.
-- A workspace without a row has the defaults.
CREATE TABLE lnp_web.workspace_sign_in (
    workspace_id    uuid PRIMARY KEY REFERENCES lnp_core.workspaces (id) ON DELETE CASCADE,
    allowed_domains text[] NOT NULL DEFAULT '{}',
    create_users    boolean NOT NULL DEFAULT false,
    default_role    text NOT NULL DEFAULT 'member' CHECK (default_role IN ('admin', 'member')),
    -- group name -> 'admin' or 'member'
    group_roles     jsonb NOT NULL DEFAULT '{}',
    links_allowed   boolean NOT NULL DEFAULT true,
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (NOT create_users OR cardinality(allowed_domains) > 0)
);
