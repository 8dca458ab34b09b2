package dev.lnp.plugins.chatbot;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** All SQL of the workspace's knowledge: sources, passages, and the generation that tells when they changed. */
final class KnowledgeRepository {

    private static final String SOURCE_COLUMNS = "id, kind, title, url, language, status, error, passages, "
            + "created_at, updated_at, indexed_at, parent_id, fetched_at, ticket_id, question";

    Map<String, Object> insertSource(Handle h, UUID ws, String kind, String title, String url, String language,
            String content) {
        return insertSource(h, ws, kind, title, false, url, language, content, null);
    }

    /** A source; {@code titleAuto}: a fetched page's {@code <title>} replaces the title given. */
    Map<String, Object> insertSource(Handle h, UUID ws, String kind, String title, boolean titleAuto, String url,
            String language, String content, UUID parentId) {
        return h.createQuery("INSERT INTO chatbot.knowledge_sources (workspace_id, kind, title, title_auto, url, "
                        + "language, content, parent_id) VALUES (:ws, :kind, :title, :auto, :url, :language, :content, "
                        + "CAST(:parent AS uuid)) RETURNING " + SOURCE_COLUMNS)
                .bind("ws", ws).bind("kind", kind).bind("title", title).bind("auto", titleAuto).bind("url", url)
                .bind("language", language).bind("content", content).bind("parent", parentId)
                .map((rs, ctx) -> source(rs)).one();
    }

    /**
     * A sitemap's pages: the addresses it did not have yet become {@code url} sources (their title from the page),
     * the ones it had are fetched again. The count of its pages.
     */
    int upsertPages(Handle h, UUID ws, UUID sitemapId, String language, List<String> urls) {
        var batch = h.prepareBatch("INSERT INTO chatbot.knowledge_sources (workspace_id, kind, title, title_auto, url, "
                + "language, content, parent_id) VALUES (:ws, 'url', :url, true, :url, :language, '', :parent) "
                + "ON CONFLICT (parent_id, url) WHERE parent_id IS NOT NULL DO UPDATE SET status = 'pending', "
                + "error = NULL, updated_at = clock_timestamp()");
        for (String u : urls) {
            batch.bind("ws", ws).bind("url", u).bind("language", language).bind("parent", sitemapId).add();
        }
        if (!urls.isEmpty()) {
            batch.execute();
        }
        return h.createQuery("SELECT count(*) FROM chatbot.knowledge_sources WHERE workspace_id = :ws "
                        + "AND parent_id = :parent").bind("ws", ws).bind("parent", sitemapId).mapTo(Integer.class).one();
    }

    /** A page or sitemap to fetch again: pending, so the indexer takes it. */
    Optional<Map<String, Object>> refresh(Handle h, UUID ws, UUID id) {
        return h.createQuery("UPDATE chatbot.knowledge_sources SET status = 'pending', error = NULL, "
                        + "updated_at = clock_timestamp() WHERE workspace_id = :ws AND id = :id "
                        + "AND kind IN ('url', 'sitemap') AND status <> 'draft' RETURNING " + SOURCE_COLUMNS)
                .bind("ws", ws).bind("id", id).map((rs, ctx) -> source(rs)).findOne();
    }

    /**
     * A ticket's answer as a draft: never indexed until approved; one per ticket (a second delivery of the event
     * changes nothing). Empty when the ticket already has one.
     */
    Optional<Map<String, Object>> insertDraft(Handle h, UUID ws, UUID ticketId, String title, String question,
            String answer, String language) {
        return h.createQuery("INSERT INTO chatbot.knowledge_sources (workspace_id, kind, title, language, content, "
                        + "status, ticket_id, question) VALUES (:ws, 'ticket_answer', :title, :language, :answer, "
                        + "'draft', :ticket, :question) ON CONFLICT (workspace_id, ticket_id) WHERE ticket_id IS NOT "
                        + "NULL DO NOTHING RETURNING " + SOURCE_COLUMNS)
                .bind("ws", ws).bind("title", title).bind("language", language).bind("answer", answer)
                .bind("ticket", ticketId).bind("question", question).map((rs, ctx) -> source(rs)).findOne();
    }

    /** An approved draft: pending, so it is indexed and answered from. */
    Optional<Map<String, Object>> approve(Handle h, UUID ws, UUID id) {
        return h.createQuery("UPDATE chatbot.knowledge_sources SET status = 'pending', error = NULL, "
                        + "updated_at = clock_timestamp() WHERE workspace_id = :ws AND id = :id AND status = 'draft' "
                        + "RETURNING " + SOURCE_COLUMNS)
                .bind("ws", ws).bind("id", id).map((rs, ctx) -> source(rs)).findOne();
    }

    List<Map<String, Object>> drafts(Handle h, UUID ws, int limit) {
        return h.createQuery("SELECT " + SOURCE_COLUMNS + " FROM chatbot.knowledge_sources WHERE workspace_id = :ws "
                        + "AND status = 'draft' ORDER BY created_at, id LIMIT :limit")
                .bind("ws", ws).bind("limit", limit).map((rs, ctx) -> source(rs)).list();
    }

    Optional<Map<String, Object>> updateSource(Handle h, UUID ws, UUID id, String title, String url, String language,
            String content) {
        // An edit indexes again even a page whose body did not change (content_hash cleared); a title typed over a
        // page's own title stays.
        return h.createQuery("UPDATE chatbot.knowledge_sources SET title_auto = (title_auto AND title = :title), "
                        + "content_hash = NULL, title = :title, url = :url, language = :language, "
                        + "content = :content, status = CASE WHEN status = 'draft' THEN 'draft' ELSE 'pending' END, "
                        + "error = NULL, updated_at = clock_timestamp() "
                        + "WHERE workspace_id = :ws AND id = :id AND article_id IS NULL RETURNING " + SOURCE_COLUMNS)
                .bind("ws", ws).bind("id", id).bind("title", title).bind("url", url).bind("language", language)
                .bind("content", content).map((rs, ctx) -> source(rs)).findOne();
    }

    Optional<Map<String, Object>> findSource(Handle h, UUID ws, UUID id) {
        return h.createQuery("SELECT " + SOURCE_COLUMNS + ", content FROM chatbot.knowledge_sources "
                        + "WHERE workspace_id = :ws AND id = :id")
                .bind("ws", ws).bind("id", id).map((rs, ctx) -> {
                    var m = source(rs);
                    m.put("content", rs.getString("content"));
                    return m;
                }).findOne();
    }

    List<Map<String, Object>> listSources(Handle h, UUID ws, int limit, long offset) {
        return h.createQuery("SELECT " + SOURCE_COLUMNS + " FROM chatbot.knowledge_sources WHERE workspace_id = :ws "
                        + "ORDER BY created_at, id LIMIT :limit OFFSET :offset")
                .bind("ws", ws).bind("limit", limit).bind("offset", offset).map((rs, ctx) -> source(rs)).list();
    }

    long countSources(Handle h, UUID ws) {
        return h.createQuery("SELECT count(*) FROM chatbot.knowledge_sources WHERE workspace_id = :ws")
                .bind("ws", ws).mapTo(Long.class).one();
    }

    boolean deleteSource(Handle h, UUID ws, UUID id) {
        return h.createUpdate("DELETE FROM chatbot.knowledge_sources WHERE workspace_id = :ws AND id = :id "
                        + "AND article_id IS NULL")
                .bind("ws", ws).bind("id", id).execute() > 0;
    }

    /** How far indexing is: sources by status and the passages stored. */
    record Progress(long pending, long indexing, long indexed, long failed, long passages, long drafts) {
        long sources() {
            return pending + indexing + indexed + failed;
        }
    }

    Progress progress(Handle h, UUID ws) {
        return h.createQuery("""
                        SELECT count(*) FILTER (WHERE status = 'pending'), count(*) FILTER (WHERE status = 'indexing'),
                               count(*) FILTER (WHERE status = 'indexed'), count(*) FILTER (WHERE status = 'failed'),
                               coalesce(sum(passages) FILTER (WHERE status = 'indexed'), 0),
                               count(*) FILTER (WHERE status = 'draft')
                          FROM chatbot.knowledge_sources WHERE workspace_id = :ws""")
                .bind("ws", ws)
                .map((rs, ctx) -> new Progress(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        rs.getLong(5), rs.getLong(6)))
                .one();
    }

    /** A source the indexer took: the version it read is the one it may mark indexed. */
    record Claim(UUID workspaceId, UUID sourceId) {
    }

    /**
     * Takes the oldest source waiting to be indexed, in any workspace (run as the platform's own user), or one whose
     * indexer's lease ran out (its node stopped), and leases it; other nodes skip it while it is locked.
     */
    Optional<Claim> claim(Handle h, Duration lease) {
        return h.createQuery("""
                        UPDATE chatbot.knowledge_sources SET status = 'indexing',
                               lease_until = now() + make_interval(secs => :lease)
                         WHERE id = (SELECT id FROM chatbot.knowledge_sources
                                      WHERE status = 'pending' OR (status = 'indexing' AND lease_until < now())
                                      ORDER BY updated_at LIMIT 1 FOR UPDATE SKIP LOCKED)
                        RETURNING workspace_id, id""")
                .bind("lease", (double) lease.toSeconds())
                .map((rs, ctx) -> new Claim(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class))).findOne();
    }

    /** What the indexer reads of a source. */
    record SourceText(String kind, String title, String url, String language, String content, Instant updatedAt,
            boolean titleAuto, byte[] contentHash, String status) {
        SourceText(String kind, String title, String url, String language, String content, Instant updatedAt) {
            this(kind, title, url, language, content, updatedAt, false, null, "indexing");
        }
    }

    Optional<SourceText> sourceText(Handle h, UUID ws, UUID id) {
        return h.createQuery("SELECT kind, title, url, language, content, updated_at, title_auto, content_hash, status "
                        + "FROM chatbot.knowledge_sources WHERE workspace_id = :ws AND id = :id")
                .bind("ws", ws).bind("id", id)
                .map((rs, ctx) -> new SourceText(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getTimestamp(6).toInstant(), rs.getBoolean(7), rs.getBytes(8),
                        rs.getString(9)))
                .findOne();
    }

    /**
     * What a fetch brought, stored with the passages (same transaction, after {@link #replacePassages}): the body,
     * its hash, the page's title when the title is the page's own.
     */
    void storeFetched(Handle h, UUID ws, UUID id, String content, byte[] hash, String pageTitle) {
        h.createUpdate("UPDATE chatbot.knowledge_sources SET content = :content, content_hash = :hash, "
                        + "fetched_at = now(), title = CASE WHEN title_auto AND CAST(:title AS text) IS NOT NULL "
                        + "THEN CAST(:title AS text) ELSE title END "
                        + "WHERE workspace_id = :ws AND id = :id")
                .bind("ws", ws).bind("id", id).bind("content", content).bind("hash", hash).bind("title", pageTitle)
                .execute();
    }

    /** A page fetched again whose body did not change: its passages (and embeddings) stay as they are. */
    boolean markUnchanged(Handle h, UUID ws, UUID id, Instant seen) {
        return h.createUpdate("UPDATE chatbot.knowledge_sources SET status = 'indexed', error = NULL, lease_until = "
                        + "NULL, fetched_at = now(), indexed_at = now() WHERE workspace_id = :ws AND id = :id "
                        + "AND updated_at = :seen")
                .bind("ws", ws).bind("id", id).bind("seen", Timestamp.from(seen)).execute() > 0;
    }

    /** A sitemap read: its pages are sources of their own, it keeps no passage. */
    boolean markSitemapRead(Handle h, UUID ws, UUID id, Instant seen, String content) {
        return h.createUpdate("UPDATE chatbot.knowledge_sources SET status = 'indexed', error = NULL, lease_until = "
                        + "NULL, content = :content, fetched_at = now(), indexed_at = now(), passages = 0 "
                        + "WHERE workspace_id = :ws AND id = :id AND updated_at = :seen")
                .bind("ws", ws).bind("id", id).bind("seen", Timestamp.from(seen)).bind("content", content)
                .execute() > 0;
    }

    /** A passage's vector and its sentences' ({@link Passage#sentenceTexts()}, in order, concatenated). */
    record Vectors(byte[] embedding, byte[] sentences) {
    }

    /**
     * The embeddings the source's passages have now, by content hash (hex): unchanged passages keep theirs. A
     * passage stored before its sentences were embedded (V16) is embedded again.
     */
    Map<String, Vectors> embeddingsByHash(Handle h, UUID ws, UUID sourceId) {
        Map<String, Vectors> out = new HashMap<>();
        h.createQuery("SELECT content_hash, embedding, sentence_embeddings FROM chatbot.knowledge_passages "
                        + "WHERE workspace_id = :ws AND source_id = :source AND sentence_embeddings IS NOT NULL")
                .bind("ws", ws).bind("source", sourceId)
                .map((rs, ctx) -> Map.entry(java.util.HexFormat.of().formatHex(rs.getBytes(1)),
                        new Vectors(rs.getBytes(2), rs.getBytes(3))))
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /** A passage ready to store. */
    record Indexed(Passage passage, byte[] hash, byte[] embedding, byte[] sentences) {
    }

    /**
     * Replaces the source's passages and marks it indexed, provided it was not changed since the indexer read it
     * (then it is pending again and is indexed anew). Locks the source row first, so two writes never interleave.
     */
    boolean replacePassages(Handle h, UUID ws, UUID sourceId, Instant seen, String url, String language,
            List<Indexed> passages) {
        Optional<Timestamp> current = h.createQuery("SELECT updated_at FROM chatbot.knowledge_sources "
                        + "WHERE workspace_id = :ws AND id = :id FOR UPDATE")
                .bind("ws", ws).bind("id", sourceId).mapTo(Timestamp.class).findOne();
        if (current.isEmpty() || !current.get().toInstant().equals(seen)) {
            return false;
        }
        h.createUpdate("DELETE FROM chatbot.knowledge_passages WHERE workspace_id = :ws AND source_id = :source")
                .bind("ws", ws).bind("source", sourceId).execute();
        var batch = h.prepareBatch("INSERT INTO chatbot.knowledge_passages (workspace_id, source_id, ordinal, title, "
                + "heading, anchor, url, language, text, content_hash, embedding, sentence_embeddings) VALUES (:ws, "
                + ":source, :ordinal, :title, :heading, :anchor, :url, :language, :text, :hash, :embedding, "
                + ":sentences)");
        int ordinal = 0;
        for (Indexed p : passages) {
            batch.bind("ws", ws).bind("source", sourceId).bind("ordinal", ordinal++)
                    .bind("title", p.passage().title()).bind("heading", p.passage().heading())
                    .bind("anchor", p.passage().anchor()).bind("url", url).bind("language", language)
                    .bind("text", p.passage().text()).bind("hash", p.hash()).bind("embedding", p.embedding())
                    .bind("sentences", p.sentences()).add();
        }
        if (!passages.isEmpty()) {
            batch.execute();
        }
        h.createUpdate("UPDATE chatbot.knowledge_sources SET status = 'indexed', error = NULL, lease_until = NULL, "
                        + "passages = :n, indexed_at = now() WHERE workspace_id = :ws AND id = :id")
                .bind("ws", ws).bind("id", sourceId).bind("n", passages.size()).execute();
        bumpGeneration(h, ws);
        return true;
    }

    void markFailed(Handle h, UUID ws, UUID sourceId, Instant seen, String error) {
        h.createUpdate("UPDATE chatbot.knowledge_sources SET status = 'failed', error = :error, lease_until = NULL "
                        + "WHERE workspace_id = :ws AND id = :id AND updated_at = :seen")
                .bind("ws", ws).bind("id", sourceId).bind("seen", Timestamp.from(seen)).bind("error", error).execute();
    }

    void bumpGeneration(Handle h, UUID ws) {
        h.createUpdate("INSERT INTO chatbot.knowledge_generations (workspace_id, generation) VALUES (:ws, 1) "
                        + "ON CONFLICT (workspace_id) DO UPDATE SET generation = knowledge_generations.generation + 1")
                .bind("ws", ws).execute();
    }

    long generation(Handle h, UUID ws) {
        return h.createQuery("SELECT generation FROM chatbot.knowledge_generations WHERE workspace_id = :ws")
                .bind("ws", ws).mapTo(Long.class).findOne().orElse(0L);
    }

    /** Every passage's id, embedding and sentences' embeddings (or null) in the workspace, for the in-memory vectors. */
    void vectors(Handle h, UUID ws, VectorSink each) {
        h.createQuery("SELECT id, embedding, sentence_embeddings FROM chatbot.knowledge_passages "
                        + "WHERE workspace_id = :ws")
                .bind("ws", ws).setFetchSize(2000)
                .map((rs, ctx) -> {
                    each.accept(rs.getObject(1, UUID.class), rs.getBytes(2), rs.getBytes(3));
                    return 0;
                })
                .forEach(x -> { });
    }

    /** Receives the rows {@link #vectors} reads. */
    interface VectorSink {
        void accept(UUID id, byte[] embedding, byte[] sentences);
    }

    /**
     * The passages matching a websearch_to_tsquery in one language, best first (title and heading weigh more than
     * the text). Only the first {@code ranked} matches the index yields are ranked: ranking reads each match's
     * tsvector, so a query that matches most of a large workspace would otherwise rank all of it for 30 rows. Run
     * by {@code chatbot.knowledge_full_text} (V12), which reaches the full-text index under row-level security and
     * plans each query for its own words; the workspace is the transaction's.
     */
    List<UUID> fullText(Handle h, String language, String query, int limit, int ranked) {
        return h.createQuery("SELECT id FROM chatbot.knowledge_full_text(:lang, :query, :ranked, :limit) "
                        + "ORDER BY rank DESC, id")
                .bind("lang", language).bind("query", query).bind("limit", limit).bind("ranked", ranked)
                .mapTo(UUID.class).list();
    }

    /** The question's words as the language's text-search configuration stems them, stop words left out. */
    List<String> lexemes(Handle h, String language, String question) {
        return h.createQuery("SELECT unnest(tsvector_to_array(to_tsvector(chatbot.ts_config(:lang), :question)))")
                .bind("lang", language).bind("question", question).mapTo(String.class).list();
    }

    /** Every stemmed word the workspace's passages in the language use (read with the in-memory vectors). */
    java.util.Set<String> vocabulary(Handle h, UUID ws, String language) {
        java.util.Set<String> out = new java.util.HashSet<>();
        h.createQuery("SELECT DISTINCT unnest(tsvector_to_array(search)) FROM chatbot.knowledge_passages "
                        + "WHERE workspace_id = :ws AND language = :lang")
                .bind("ws", ws).bind("lang", language).setFetchSize(5000).mapTo(String.class).forEach(out::add);
        return out;
    }

    /** A stored passage as the responders use it. */
    record Stored(UUID id, UUID sourceId, Passage passage, String url) {
    }

    List<Stored> passages(Handle h, UUID ws, List<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        Map<UUID, Stored> byId = new HashMap<>();
        h.createQuery("SELECT id, source_id, title, heading, anchor, text, url FROM chatbot.knowledge_passages "
                        + "WHERE workspace_id = :ws AND id = ANY(:ids)")
                .bind("ws", ws).bind("ids", ids.toArray(UUID[]::new))
                .map((rs, ctx) -> new Stored(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class),
                        new Passage(rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6)),
                        rs.getString(7)))
                .forEach(s -> byId.put(s.id(), s));
        List<Stored> out = new ArrayList<>();
        for (UUID id : ids) {
            if (byId.containsKey(id)) {
                out.add(byId.get(id));
            }
        }
        return out;
    }

    private static Map<String, Object> source(ResultSet rs) throws SQLException {
        var m = new LinkedHashMap<String, Object>();
        m.put("id", rs.getObject("id", UUID.class));
        m.put("kind", rs.getString("kind"));
        m.put("title", rs.getString("title"));
        m.put("url", rs.getString("url"));
        m.put("language", rs.getString("language"));
        m.put("status", rs.getString("status"));
        m.put("error", rs.getString("error"));
        m.put("passages", rs.getInt("passages"));
        m.put("created_at", rs.getTimestamp("created_at").toInstant());
        m.put("updated_at", rs.getTimestamp("updated_at").toInstant());
        Timestamp indexed = rs.getTimestamp("indexed_at");
        m.put("indexed_at", indexed == null ? null : indexed.toInstant());
        m.put("parent_id", rs.getObject("parent_id", UUID.class));
        Timestamp fetched = rs.getTimestamp("fetched_at");
        m.put("fetched_at", fetched == null ? null : fetched.toInstant());
        m.put("ticket_id", rs.getObject("ticket_id", UUID.class));
        m.put("question", rs.getString("question"));
        return m;
    }
}
