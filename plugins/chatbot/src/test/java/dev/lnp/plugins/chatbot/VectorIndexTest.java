package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class VectorIndexTest {

    private static float[] axis(int d) {
        float[] v = new float[Embedder.DIMENSIONS];
        v[d] = 1;
        return v;
    }

    private static byte[] sentences(float[]... vectors) {
        float[] all = new float[vectors.length * Embedder.DIMENSIONS];
        for (int i = 0; i < vectors.length; i++) {
            System.arraycopy(vectors[i], 0, all, i * Embedder.DIMENSIONS, Embedder.DIMENSIONS);
        }
        return Embedder.bytes(all);
    }

    @Test
    void passagesAreRankedByTheirBestSentenceAndKeptByTheirBestSentenceAlone() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        UUID old = UUID.randomUUID();
        var builder = new VectorIndex.Builder();
        // a: two sentences, (under its heading, alone) each; b: one; old: indexed before sentences were embedded.
        builder.add(a, Embedder.bytes(axis(0)), sentences(axis(1), axis(2), axis(3), axis(4)));
        builder.add(b, Embedder.bytes(axis(0)), sentences(axis(3), axis(5)));
        builder.add(old, Embedder.bytes(axis(3)), null);
        VectorIndex index = builder.build(1, Set.of());

        assertEquals(3 + 2 * 3, index.size(), "the passages' vectors and two a sentence");
        float[] q = Embedder.normalised(new float[Embedder.DIMENSIONS]);
        q[3] = 0.8f;
        q[1] = 0.6f;
        List<VectorIndex.Scored> ranked = index.nearestBySentence(q, List.of(a, b, old), 10);
        assertEquals(List.of(a, b), ranked.stream().map(VectorIndex.Scored::id).toList(),
                "a's second sentence (0.8) and first (0.6) against b's only one (0.8): ties keep the order; old left out");
        assertEquals(0.8, ranked.get(0).cosine(), 1e-6);
        assertEquals(1, index.nearestBySentence(q, List.of(b, a), 1).size());
        assertEquals(0.0, index.bestSentence(q, a), 1e-6, "a's sentences alone are axes 2 and 4");
        assertEquals(-1, index.bestSentence(q, old), "no sentence vectors");
        assertEquals(-1, index.bestSentence(q, UUID.randomUUID()));
        float[] alone = axis(5);
        assertEquals(1.0, index.bestSentence(alone, b), 1e-6);
        assertEquals(List.of(b), index.nearestBySentence(q, List.of(b, UUID.randomUUID()), 10).stream()
                .map(VectorIndex.Scored::id).toList(), "only the passages asked for");
        assertEquals(List.of(), new VectorIndex.Builder().build(1, Set.of()).nearestBySentence(q, List.of(a), 30));
    }
}
