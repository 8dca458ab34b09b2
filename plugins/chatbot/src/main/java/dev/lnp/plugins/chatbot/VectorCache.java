package dev.lnp.plugins.chatbot;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * The workspaces' {@link VectorIndex}es on this node, re-read from the database only when the workspace's
 * generation moved (one indexed source, one deleted). Bounded by the number of vectors it keeps
 * ({@code lnp.chatbot.knowledge.cached_vectors}, 200,000 by default: about 300 MB; a passage counts its own vector
 * and its sentences', {@link VectorIndex#size()}); the workspace used least recently goes first, and one larger than
 * the bound is read for each question instead of kept.
 */
final class VectorCache {

    private final long maxVectors;
    private final KnowledgeRepository repo;
    private final Map<UUID, VectorIndex> byWorkspace = new LinkedHashMap<>(16, 0.75f, true);
    private long vectors;

    VectorCache(KnowledgeRepository repo, long maxVectors) {
        this.repo = repo;
        this.maxVectors = maxVectors;
    }

    VectorIndex index(Handle h, UUID ws) {
        long generation = repo.generation(h, ws);
        synchronized (this) {
            VectorIndex cached = byWorkspace.get(ws);
            if (cached != null && cached.generation == generation) {
                return cached;
            }
        }
        var builder = new VectorIndex.Builder();
        repo.vectors(h, ws, builder::add);
        VectorIndex fresh = builder.build(generation, repo.vocabulary(h, ws, Embedder.LANGUAGE));
        synchronized (this) {
            VectorIndex old = byWorkspace.remove(ws);
            if (old != null) {
                vectors -= old.size();
            }
            if (fresh.size() <= maxVectors) {
                byWorkspace.put(ws, fresh);
                vectors += fresh.size();
                var it = byWorkspace.entrySet().iterator();
                while (vectors > maxVectors && it.hasNext()) {
                    var eldest = it.next();
                    vectors -= eldest.getValue().size();
                    it.remove();
                }
            }
        }
        return fresh;
    }
}
