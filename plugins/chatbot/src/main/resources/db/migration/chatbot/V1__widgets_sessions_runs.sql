-- The text-search configuration of a language (BCP 47 primary subtag); 'simple' for the others.
CREATE FUNCTION ts_config(lang text) RETURNS regconfig
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT (CASE lower(lang)
    WHEN 'en' THEN 'english' WHEN 'de' THEN 'german' WHEN 'fr' THEN 'french' WHEN 'es' THEN 'spanish'
    WHEN 'it' THEN 'italian' WHEN 'nl' THEN 'dutch' WHEN 'pt' THEN 'portuguese' WHEN 'sv' THEN 'swedish'
    WHEN 'da' THEN 'danish' WHEN 'nb' THEN 'norwegian' WHEN 'no' THEN 'norwegian' WHEN 'fi' THEN 'finnish'
    WHEN 'ru' THEN 'russian' WHEN 'hu' THEN 'hungarian' WHEN 'ro' THEN 'romanian' WHEN 'tr' THEN 'turkish'
    ELSE 'simple' END)::regconfig $$;

CREATE TABLE widgets (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id       uuid NOT NULL,
    name               text NOT NULL,
    allowed_origins    text[] NOT NULL,
    greeting           text NOT NULL DEFAULT '',
    accent_color       text NOT NULL DEFAULT '#1f6feb',
    position           text NOT NULL DEFAULT 'right',
    streaming          boolean NOT NULL DEFAULT true,
    human_handoff      boolean NOT NULL DEFAULT true,
    responder          text NOT NULL DEFAULT 'knowledge',
    language           text NOT NULL DEFAULT 'en',
    responder_settings jsonb NOT NULL DEFAULT '{}',
    key_hash           bytea NOT NULL UNIQUE,
    key_prefix         text NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX widgets_workspace ON widgets (workspace_id, created_at, id);

CREATE TABLE articles (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    widget_id    uuid NOT NULL REFERENCES widgets (id) ON DELETE CASCADE,
    title        text NOT NULL,
    body         text NOT NULL,
    url          text,
    language     text NOT NULL,
    search       tsvector GENERATED ALWAYS AS (
                     setweight(to_tsvector(chatbot.ts_config(language), title), 'A')
                     || setweight(to_tsvector(chatbot.ts_config(language), body), 'B')) STORED,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX articles_widget ON articles (widget_id, created_at, id);
CREATE INDEX articles_search ON articles USING gin (search);

CREATE TABLE sessions (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL,
    widget_id     uuid NOT NULL REFERENCES widgets (id) ON DELETE CASCADE,
    origin        text NOT NULL,
    page_url      text,
    language      text NOT NULL,
    ticket_id     uuid,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_ticket ON sessions (ticket_id) WHERE ticket_id IS NOT NULL;

CREATE TABLE messages (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    seq          bigint GENERATED ALWAYS AS IDENTITY,
    workspace_id uuid NOT NULL,
    session_id   uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    role         text NOT NULL CHECK (role IN ('visitor', 'assistant', 'human_agent', 'system')),
    text         text NOT NULL,
    run_id       uuid,
    citations    jsonb NOT NULL DEFAULT '[]',
    comment_id   uuid UNIQUE,      -- a hand-off ticket's comment, delivered once
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_session ON messages (session_id, seq);

-- What the stream sends: one row per event, read by every node after the last id a client saw.
CREATE TABLE events (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id uuid NOT NULL,
    session_id   uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    name         text NOT NULL,
    data         jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_session ON events (session_id, id);

CREATE TABLE runs (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL,
    session_id    uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    message_id    uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    request_human boolean NOT NULL DEFAULT false,
    status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
    attempts      int NOT NULL DEFAULT 0,
    node          text,
    lease_until   timestamptz,
    error_code    text,
    error_detail  text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX runs_open ON runs (lease_until) WHERE status IN ('pending', 'running');

-- Per-minute counters of the public endpoints (session, widget, client address), shared by every node.
CREATE TABLE rate_counters (
    bucket       text NOT NULL,
    window_start timestamptz NOT NULL,
    hits         int NOT NULL,
    PRIMARY KEY (bucket, window_start)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['widgets', 'articles', 'sessions', 'messages', 'events', 'runs'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (workspace_id = lnp_core.current_workspace()) '
                       'WITH CHECK (workspace_id = lnp_core.current_workspace())', t);
    END LOOP;
    -- The public endpoints find a widget by its key before they know the workspace, and the run sweeper
    -- looks for expired leases on every workspace: both as the platform's own user (acrossWorkspaces), and
    -- only on these two tables.
    EXECUTE format('CREATE POLICY platform_worker ON widgets TO %I USING (true) WITH CHECK (true)', current_user);
    EXECUTE format('CREATE POLICY platform_worker ON runs TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;
