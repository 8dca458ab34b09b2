package dev.lnp.plugins.chatbot;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Sentence embeddings computed in process on the CPU: the quantized all-MiniLM-L6-v2 model (384 dimensions), which
 * ships inside its jar and runs on ONNX Runtime. Vectors are normalised to length 1, so their dot product is their
 * cosine. The model (about 23 MB, and ONNX Runtime's native library) is loaded on first use, not at start-up.
 */
final class Embedder {

    static final int DIMENSIONS = 384;
    /** The model was trained on English sentences only. */
    static final String LANGUAGE = "en";
    private volatile EmbeddingModel model;

    /** Whether the model's vectors mean something for text in this language (a code such as {@code de}). */
    static boolean reads(String language) {
        return LANGUAGE.equals(language);
    }

    float[] embed(String text) {
        return normalised(model().embed(text).content().vector());
    }

    List<float[]> embedAll(List<String> texts) {
        List<TextSegment> segments = texts.stream().map(TextSegment::from).toList();
        List<float[]> out = new ArrayList<>(texts.size());
        for (var e : model().embedAll(segments).content()) {
            out.add(normalised(e.vector()));
        }
        return out;
    }

    private EmbeddingModel model() {
        EmbeddingModel m = model;
        if (m == null) {
            synchronized (this) {
                if (model == null) {
                    model = new AllMiniLmL6V2QuantizedEmbeddingModel();
                }
                m = model;
            }
        }
        return m;
    }

    static float[] normalised(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += x * x;
        }
        float norm = (float) Math.sqrt(sum);
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = norm == 0 ? 0 : v[i] / norm;
        }
        return out;
    }

    static byte[] bytes(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(v);
        return b.array();
    }

    static float[] vector(byte[] bytes) {
        float[] v = new float[bytes.length / 4];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }
}
