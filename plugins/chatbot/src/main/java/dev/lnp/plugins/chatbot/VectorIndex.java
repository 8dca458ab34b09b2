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
 * PostgreSQL. Beside them, each passage's sentences (two vectors a sentence, {@link Passage#sentenceTexts()}): the
 * sentence under its title and heading, scanned for a ranking of its own, and the sentence alone, read only for the
 * candidates' floor. With them, the stemmed words the passages use. Built for one generation of the workspace's
 * knowledge and replaced when the generation moves.
 */
final class VectorIndex {

    final long generation;
    /** The stemmed words of the workspace's passages in the model's language (see {@link Retriever}). */
    final Set<String> vocabulary;
    private final UUID[] ids;
    private final float[] rows;
    /** Passage i's sentences are rows {@code firstSentence[i]} to {@code firstSentence[i + 1] - 1} of these two. */
    private final int[] firstSentence;
    private final float[] sentenceRows;
    private final float[] bareSentenceRows;
    private final Map<UUID, Integer> rowOf;

    private VectorIndex(long generation, UUID[] ids, float[] rows, int[] firstSentence, float[] sentenceRows,
            float[] bareSentenceRows, Set<String> vocabulary) {
        this.generation = generation;
        this.vocabulary = vocabulary;
        this.ids = ids;
        this.rows = rows;
        this.firstSentence = firstSentence;
        this.sentenceRows = sentenceRows;
        this.bareSentenceRows = bareSentenceRows;
        this.rowOf = new HashMap<>(ids.length * 2);
        for (int i = 0; i < ids.length; i++) {
            rowOf.put(ids[i], i);
        }
    }

    /** Collects rows as they are read from the database. */
    static final class Builder {
        private final List<UUID> ids = new ArrayList<>();
        private float[] rows = new float[Embedder.DIMENSIONS * 64];
        private final List<Integer> firstSentence = new ArrayList<>();
        private float[] sentenceRows = new float[Embedder.DIMENSIONS * 64];
        private float[] bareSentenceRows = new float[Embedder.DIMENSIONS * 64];
        private int sentences;

        /** A passage; {@code sentenceEmbeddings} null for one indexed before its sentences were embedded. */
        void add(UUID id, byte[] embedding, byte[] sentenceEmbeddings) {
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
            firstSentence.add(sentences);
            float[] s = sentenceEmbeddings == null ? new float[0] : Embedder.vector(sentenceEmbeddings);
            if (s.length % (2 * Embedder.DIMENSIONS) != 0) {
                return;
            }
            for (int k = 0; k < s.length; k += 2 * Embedder.DIMENSIONS) {
                int to = sentences * Embedder.DIMENSIONS;
                if (to + Embedder.DIMENSIONS > sentenceRows.length) {
                    sentenceRows = Arrays.copyOf(sentenceRows, sentenceRows.length * 2);
                    bareSentenceRows = Arrays.copyOf(bareSentenceRows, bareSentenceRows.length * 2);
                }
                System.arraycopy(s, k, sentenceRows, to, Embedder.DIMENSIONS);
                System.arraycopy(s, k + Embedder.DIMENSIONS, bareSentenceRows, to, Embedder.DIMENSIONS);
                sentences++;
            }
        }

        VectorIndex build(long generation, Set<String> vocabulary) {
            int[] first = new int[ids.size() + 1];
            for (int i = 0; i < ids.size(); i++) {
                first[i] = firstSentence.get(i);
            }
            first[ids.size()] = sentences;
            return new VectorIndex(generation, ids.toArray(UUID[]::new),
                    Arrays.copyOf(rows, ids.size() * Embedder.DIMENSIONS), first,
                    Arrays.copyOf(sentenceRows, sentences * Embedder.DIMENSIONS),
                    Arrays.copyOf(bareSentenceRows, sentences * Embedder.DIMENSIONS), vocabulary);
        }
    }

    /** The vectors kept: the passages' and their sentences' (two a sentence), what the cache's bound counts. */
    int size() {
        return ids.length + 2 * (firstSentence[ids.length]);
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

    /**
     * Of the passages given, the {@code limit} whose best sentence (under its title and heading) is nearest the query,
     * nearest first, with that sentence's cosine. Passages without sentence vectors, or not in this index, are left
     * out.
     */
    List<Scored> nearestBySentence(float[] query, java.util.Collection<UUID> among, int limit) {
        java.util.Set<Integer> rowsAmong = new java.util.LinkedHashSet<>();
        for (UUID id : among) {
            Integer row = rowOf.get(id);
            if (row != null) {
                rowsAmong.add(row);
            }
        }
        int[] candidates = rowsAmong.stream().mapToInt(Integer::intValue).toArray();
        float[] score = new float[candidates.length];
        for (int c = 0; c < score.length; c++) {
            int i = candidates[c];
            float best = Float.NEGATIVE_INFINITY;
            for (int r = firstSentence[i]; r < firstSentence[i + 1]; r++) {
                best = Math.max(best, dot(query, sentenceRows, r));
            }
            score[c] = best;
        }
        return top(score, candidates, limit);
    }

    /**
     * The {@code limit} highest scores, highest first, as the passages of {@code rows} (score i is row
     * {@code rows[i]}'s); scores of negative infinity left out.
     */
    private List<Scored> top(float[] score, int[] rows, int limit) {
        int[] best = new int[Math.min(limit, score.length)];
        int kept = 0;
        for (int i = 0; i < score.length && best.length > 0; i++) {
            float s = score[i];
            if (s == Float.NEGATIVE_INFINITY || (kept == best.length && s <= score[best[kept - 1]])) {
                continue;
            }
            int j = kept < best.length ? kept++ : kept - 1;
            while (j > 0 && score[best[j - 1]] < s) {
                best[j] = best[j - 1];
                j--;
            }
            best[j] = i;
        }
        List<Scored> out = new ArrayList<>(kept);
        for (int i = 0; i < kept; i++) {
            out.add(new Scored(ids[rows[best[i]]], score[best[i]]));
        }
        return out;
    }

    /** The best cosine of one passage's sentences, each alone, with the query; -1 without sentence vectors. */
    double bestSentence(float[] query, UUID id) {
        Integer row = rowOf.get(id);
        if (row == null) {
            return -1;
        }
        double best = -1;
        for (int r = firstSentence[row]; r < firstSentence[row + 1]; r++) {
            best = Math.max(best, dot(query, bareSentenceRows, r));
        }
        return best;
    }

    /** The cosine of one passage with the query, or -1 when the passage is not in this index. */
    double cosine(float[] query, UUID id) {
        Integer row = rowOf.get(id);
        return row == null ? -1 : dot(query, row);
    }

    private float dot(float[] q, int row) {
        return dot(q, rows, row);
    }

    private static float dot(float[] q, float[] rows, int row) {
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
