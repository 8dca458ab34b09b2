-- Knowledge fetched from the web and drafted from resolved tickets (docs/chatbot.md, "Knowledge").
--  * 'url': one page, fetched by the indexer through the platform's outbound guard; its text is the fetched HTML.
--  * 'sitemap': a sitemap.xml address or a list of page addresses; the indexer turns it into 'url' sources, its
--    pages (parent_id), and keeps no passages of its own.
--  * 'ticket_answer': a support ticket's answer, drafted when the hand-off's ticket was solved or closed; it stays
--    'draft' (never indexed, never answered from) until an admin approves it.
ALTER TABLE knowledge_sources DROP CONSTRAINT knowledge_sources_kind_check;
ALTER TABLE knowledge_sources ADD CONSTRAINT knowledge_sources_kind_check
    CHECK (kind IN ('article', 'markdown', 'html', 'widget_article', 'url', 'sitemap', 'ticket_answer'));
ALTER TABLE knowledge_sources DROP CONSTRAINT knowledge_sources_status_check;
ALTER TABLE knowledge_sources ADD CONSTRAINT knowledge_sources_status_check
    CHECK (status IN ('draft', 'pending', 'indexing', 'indexed', 'failed'));

ALTER TABLE knowledge_sources
    ADD COLUMN parent_id    uuid REFERENCES knowledge_sources (id) ON DELETE CASCADE,
    -- A page's title comes from its <title> when none was given.
    ADD COLUMN title_auto   boolean NOT NULL DEFAULT false,
    -- SHA-256 of the fetched body: a page fetched again unchanged keeps its passages and their embeddings.
    ADD COLUMN content_hash bytea,
    ADD COLUMN fetched_at   timestamptz,
    -- A draft's origin: the hand-off ticket, and the visitor's question it answers.
    ADD COLUMN ticket_id    uuid,
    ADD COLUMN question     text;

-- A sitemap read again adds only the pages it did not have.
CREATE UNIQUE INDEX knowledge_sources_sitemap_page ON knowledge_sources (parent_id, url) WHERE parent_id IS NOT NULL;
-- One draft per ticket, however often its event is delivered.
CREATE UNIQUE INDEX knowledge_sources_ticket ON knowledge_sources (workspace_id, ticket_id) WHERE ticket_id IS NOT NULL;
