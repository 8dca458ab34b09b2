-- What visitors think of the answers, and what the assistant could not answer: read by the chat insights page.

-- A visitor's thumbs up (1) or down (-1) on one assistant answer; changed by rating again.
CREATE TABLE message_ratings (
    workspace_id uuid NOT NULL,
    message_id   uuid PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
    session_id   uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    rating       smallint NOT NULL CHECK (rating IN (-1, 1)),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX message_ratings_workspace ON message_ratings (workspace_id, rating, updated_at);

-- A visitor's satisfaction with a whole conversation (CSAT, 1 to 5) and an optional comment; changed by rating again.
CREATE TABLE session_ratings (
    workspace_id uuid NOT NULL,
    session_id   uuid PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    score        smallint NOT NULL CHECK (score BETWEEN 1 AND 5),
    comment      text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_ratings_workspace ON session_ratings (workspace_id, updated_at);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['message_ratings', 'session_ratings'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (workspace_id = lnp_core.current_workspace()) '
                       'WITH CHECK (workspace_id = lnp_core.current_workspace())', t);
    END LOOP;
END
$$;

-- A run whose responder found nothing relevant in the knowledge and said it does not know (offering a person).
ALTER TABLE runs ADD COLUMN unanswered boolean NOT NULL DEFAULT false;
CREATE INDEX runs_unanswered ON runs (workspace_id, created_at) WHERE unanswered;
