-- The workspace's knowledge, shared by all its widgets: sources (an article typed in the application, an imported
-- Markdown or HTML file, a widget's article) cut into passages, each with its full-text vector and its embedding.
-- A source is written as 'pending' and the indexer worker cuts and embeds it in the background.
CREATE TABLE knowledge_sources (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    kind         text NOT NULL CHECK (kind IN ('article', 'markdown', 'html', 'widget_article')),
    title        text NOT NULL,
    url          text,
    language     text NOT NULL DEFAULT 'en',
    content      text NOT NULL,
    article_id   uuid UNIQUE REFERENCES articles (id) ON DELETE CASCADE,
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'indexing', 'indexed', 'failed')),
    error        text,
    lease_until  timestamptz,
    passages     int NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    indexed_at   timestamptz
);
CREATE INDEX knowledge_sources_workspace ON knowledge_sources (workspace_id, created_at, id);
CREATE INDEX knowledge_sources_todo ON knowledge_sources (updated_at) WHERE status IN ('pending', 'indexing');

-- The embedding is 384 float32 values, little-endian, normalised to length 1 (so cosine is a dot product), as
-- bytea: pgvector is not available on every PostgreSQL the platform runs on, and the retriever keeps each
-- workspace's vectors in memory anyway (docs/chatbot.md, "Knowledge").
CREATE TABLE knowledge_passages (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    source_id    uuid NOT NULL REFERENCES knowledge_sources (id) ON DELETE CASCADE,
    ordinal      int NOT NULL,
    title        text NOT NULL,
    heading      text NOT NULL DEFAULT '',
    anchor       text NOT NULL DEFAULT '',
    url          text,
    language     text NOT NULL,
    text         text NOT NULL,
    content_hash bytea NOT NULL,
    embedding    bytea NOT NULL,
    search       tsvector GENERATED ALWAYS AS (
                     setweight(to_tsvector(chatbot.ts_config(language), title || ' ' || heading), 'A')
                     || setweight(to_tsvector(chatbot.ts_config(language), text), 'B')) STORED,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX knowledge_passages_source ON knowledge_passages (source_id, ordinal);
CREATE INDEX knowledge_passages_workspace ON knowledge_passages (workspace_id);
CREATE INDEX knowledge_passages_search ON knowledge_passages USING gin (search);

-- Bumped whenever a workspace's passages change, so a node's in-memory vectors are re-read only then.
CREATE TABLE knowledge_generations (
    workspace_id uuid PRIMARY KEY,
    generation   bigint NOT NULL DEFAULT 0
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['knowledge_sources', 'knowledge_passages', 'knowledge_generations'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (workspace_id = lnp_core.current_workspace()) '
                       'WITH CHECK (workspace_id = lnp_core.current_workspace())', t);
    END LOOP;
    -- The indexer looks for pending sources on every workspace (ids only), then works inside the workspace.
    EXECUTE format('CREATE POLICY platform_worker ON knowledge_sources TO %I USING (true) WITH CHECK (true)',
                   current_user);
END
$$;

-- A widget's articles (the management API of V1) are knowledge of the workspace too: kept in step by a trigger,
-- so the older API and every node still running the previous version feed the same index.
CREATE FUNCTION knowledge_from_article() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO chatbot.knowledge_sources (workspace_id, kind, title, url, language, content, article_id)
    VALUES (NEW.workspace_id, 'widget_article', NEW.title, NEW.url, NEW.language, NEW.body, NEW.id)
    ON CONFLICT (article_id) DO UPDATE SET title = EXCLUDED.title, url = EXCLUDED.url,
        language = EXCLUDED.language, content = EXCLUDED.content, status = 'pending', error = NULL,
        updated_at = now();
    RETURN NEW;
END
$$;
CREATE TRIGGER articles_to_knowledge AFTER INSERT OR UPDATE ON articles
    FOR EACH ROW EXECUTE FUNCTION knowledge_from_article();

INSERT INTO knowledge_sources (workspace_id, kind, title, url, language, content, article_id)
SELECT workspace_id, 'widget_article', title, url, language, body, id FROM articles;

-- A deleted source (or the widget article it came from) changes the workspace's passages too.
CREATE FUNCTION knowledge_source_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO chatbot.knowledge_generations (workspace_id, generation) VALUES (OLD.workspace_id, 1)
    ON CONFLICT (workspace_id) DO UPDATE SET generation = knowledge_generations.generation + 1;
    RETURN OLD;
END
$$;
CREATE TRIGGER knowledge_source_deleted AFTER DELETE ON knowledge_sources
    FOR EACH ROW EXECUTE FUNCTION knowledge_source_deleted();
