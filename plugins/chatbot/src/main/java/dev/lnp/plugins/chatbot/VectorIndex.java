package dev.lnp.plugins.chatbot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * One workspace's passage embeddings in memory, as one flat array (row i is passage i): a search is a dot product
 * with every row, which over 20,000 passages of 384 dimensions is a few milliseconds and needs no vector extension in
 * PostgreSQL. With them, the stemmed words the passages use. Built for one generation of the workspace's knowledge and replaced when the generation moves.
 */
final class VectorIndex {

    final long generation;
    /** The stemmed words of the workspace's passages in the model's language (see {@link Retriever}). */
    final Set<String> vocabulary;
    private final UUID[] ids;
    private final float[] rows;
    private final Map<UUID, Integer> rowOf;

    private VectorIndex(long generation, UUID[] ids, float[] rows, Set<String> vocabulary) {
        this.generation = generation;
        this.vocabulary = vocabulary;
        this.ids = ids;
        this.rows = rows;
        this.rowOf = new HashMap<>(ids.length * 2);
        for (int i = 0; i < ids.length; i++) {
            rowOf.put(ids[i], i);
        }
    }

    /** Collects rows as they are read from the database. */
    static final class Builder {
        private final List<UUID> ids = new ArrayList<>();
        private float[] rows = new float[Embedder.DIMENSIONS * 64];

        void add(UUID id, byte[] embedding) {
            float[] v = Embedder.vector(embedding);
            if (v.length != Embedder.DIMENSIONS) {
                return;                               // written by another model: skipped until re-indexed
            }
            int at = ids.size() * Embedder.DIMENSIONS;
            if (at + Embedder.DIMENSIONS > rows.length) {
                rows = Arrays.copyOf(rows, rows.length * 2);
            }
            System.arraycopy(v, 0, rows, at, Embedder.DIMENSIONS);
            ids.add(id);
        }

        VectorIndex build(long generation, Set<String> vocabulary) {
            return new VectorIndex(generation, ids.toArray(UUID[]::new),
                    Arrays.copyOf(rows, ids.size() * Embedder.DIMENSIONS), vocabulary);
        }
    }

    int size() {
        return ids.length;
    }

    /** A passage and its cosine with the query. */
    record Scored(UUID id, double cosine) {
    }

    /** The {@code limit} passages nearest the (normalised) query, nearest first. */
    List<Scored> nearest(float[] query, int limit) {
        int n = ids.length;
        int[] best = new int[Math.min(limit, n)];
        float[] bestScore = new float[best.length];
        int kept = 0;
        for (int i = 0; i < n; i++) {
            float s = dot(query, i);
            if (kept < best.length) {
                int j = kept++;
                while (j > 0 && bestScore[j - 1] < s) {
                    best[j] = best[j - 1];
                    bestScore[j] = bestScore[j - 1];
                    j--;
                }
                best[j] = i;
                bestScore[j] = s;
            } else if (s > bestScore[kept - 1]) {
                int j = kept - 1;
                while (j > 0 && bestScore[j - 1] < s) {
                    best[j] = best[j - 1];
                    bestScore[j] = bestScore[j - 1];
                    j--;
                }
                best[j] = i;
                bestScore[j] = s;
            }
        }
        List<Scored> out = new ArrayList<>(kept);
        for (int i = 0; i < kept; i++) {
            out.add(new Scored(ids[best[i]], bestScore[i]));
        }
        return out;
    }

    /** The cosine of one passage with the query, or -1 when the passage is not in this index. */
    double cosine(float[] query, UUID id) {
        Integer row = rowOf.get(id);
        return row == null ? -1 : dot(query, row);
    }

    private float dot(float[] q, int row) {
        int base = row * Embedder.DIMENSIONS;
        // Four partial sums: independent chains the CPU can run side by side.
        float a = 0;
        float b = 0;
        float c = 0;
        float d = 0;
        for (int k = 0; k < Embedder.DIMENSIONS; k += 4) {
            a += q[k] * rows[base + k];
            b += q[k + 1] * rows[base + k + 1];
            c += q[k + 2] * rows[base + k + 2];
            d += q[k + 3] * rows[base + k + 3];
        }
        return a + b + c + d;
    }
}
