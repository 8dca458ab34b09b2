-- The signing key ring of short-lived session tokens (dev.lnp.api.tokens.SessionTokens): every node signs with
-- the newest key and verifies with any key that has not expired. Platform-wide, not workspace data: only the
-- platform's own user reads it (the tenant role has no grant).
CREATE TABLE token_signing_keys (
    kid          text PRIMARY KEY,
    jwk          text NOT NULL,          -- the EC P-256 key pair as a JWK (private part included)
    created_at   timestamptz NOT NULL DEFAULT now(),
    sign_until   timestamptz NOT NULL,   -- signs new tokens until then
    verify_until timestamptz NOT NULL    -- sign_until plus the longest token lifetime
);
CREATE INDEX token_signing_keys_newest ON token_signing_keys (sign_until DESC);

-- In-process event subscriptions (Registrar.subscribe): how far each subscriber has read the outbox.
CREATE TABLE event_cursors (
    subscriber  text PRIMARY KEY,
    last_seq    bigint NOT NULL,
    held_by     text,                   -- the node delivering a batch now
    held_until  timestamptz,            -- ... until then (a node that dies lets go by itself)
    updated_at  timestamptz NOT NULL DEFAULT now()
);
