CREATE TABLE workspaces (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    owner_email   text NOT NULL,
    -- Monthly CRM write quota; NULL means the deployment default.
    crm_quota_monthly bigint CHECK (crm_quota_monthly IS NULL OR crm_quota_monthly >= 0),
    -- Plugin ids switched off for this workspace (the deployment may still load them for others).
    disabled_modules text[] NOT NULL DEFAULT '{}',
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- Human users of a workspace. Login is handled elsewhere; the platform needs them for roles and delegation.
CREATE TABLE users (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    email         text NOT NULL,
    display_name  text,
    role          text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (workspace_id, email)
);

-- An external connection (API and MCP access). Its service identity is created with it and never logs in.
CREATE TABLE connections (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id       uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name               text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    identity_id        uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    scopes             text[] NOT NULL DEFAULT '{}',
    preset             text CHECK (preset IN ('read-only', 'full-access')),
    expires_at         timestamptz,
    delegation_enabled boolean NOT NULL DEFAULT false,
    delegated_user_id  uuid REFERENCES users (id),
    tool_allow         text[],
    tool_deny          text[] NOT NULL DEFAULT '{}',
    read_only_tools    boolean NOT NULL DEFAULT false,
    rest_per_minute    integer CHECK (rest_per_minute IS NULL OR rest_per_minute > 0),
    mcp_per_minute     integer CHECK (mcp_per_minute IS NULL OR mcp_per_minute > 0),
    created_at         timestamptz NOT NULL DEFAULT now(),
    revoked_at         timestamptz,
    CHECK (NOT delegation_enabled OR delegated_user_id IS NOT NULL)
);
CREATE INDEX connections_workspace ON connections (workspace_id);

-- Secrets of a connection. Only a SHA-256 of the key is kept (keys carry 256 random bits, so a fast hash is
-- enough); the prefix is for display. A rotated secret keeps working until valid_until (the grace period).
CREATE TABLE api_keys (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    connection_id  uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
    key_hash       bytea NOT NULL UNIQUE,
    display_prefix text NOT NULL,
    legacy         boolean NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL DEFAULT now(),
    valid_until    timestamptz,
    revoked_at     timestamptz,
    last_used_at   timestamptz
);
CREATE INDEX api_keys_connection ON api_keys (connection_id);
