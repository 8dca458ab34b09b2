package dev.lnp.plugins.chatbot;

import dev.lnp.api.PluginContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;

/**
 * Hybrid retrieval over the workspace's passages: PostgreSQL full text (the visitor's language, else the widget's)
 * and the embeddings' cosine, each a ranking of its best candidates, fused by reciprocal rank fusion
 * ({@code sum 1/(60 + rank)}). Full text asks for every word of the question (an {@code AND}); the {@code OR} of
 * its words is only the fallback of full text alone (a language the model does not read), because fused with the
 * cosine it adds passages that merely share common words. A passage is relevant only when its cosine with the
 * question reaches the floor ({@link #FLOOR}, or {@link #UNFAMILIAR_FLOOR} for a question whose words are mostly
 * foreign to the workspace), or when one of its sentences alone reaches the sentence floor ({@link #SENTENCE_FLOOR},
 * {@link #UNFAMILIAR_SENTENCE_FLOOR}); below both, the answer is that nothing relevant was found. Hybrid retrieval
 * fuses a third ranking, the passages' best sentence under their title and heading: ranking and floors are separate
 * (that ranking orders the candidates, never keeps one by itself). The floors, the rule between
 * them and the candidates' count were set with the help-centre evaluation (bench/knowledge, docs/chatbot.md).
 */
final class Retriever {

    static final double FLOOR = 0.35;
    /**
     * The floor of a question at least half of whose words the workspace's passages never use ("How do I cancel my
     * gym membership?"): the model then tends to match its familiar words alone ("cancel"), so more is asked of it.
     */
    static final double UNFAMILIAR_FLOOR = 0.50;
    /**
     * The cosine one sentence of a passage, embedded alone, must reach to keep a passage whose own cosine is below
     * {@link #FLOOR}: a paraphrase often matches one sentence of its answer ("can I phone someone": the sentence
     * about calling) when the whole passage, about more, stays below.
     */
    static final double SENTENCE_FLOOR = 0.40;
    /** The same for a question whose words are mostly foreign to the workspace (see {@link #UNFAMILIAR_FLOOR}). */
    static final double UNFAMILIAR_SENTENCE_FLOOR = 0.47;
    private static final int CANDIDATES = 30;
    /**
     * The passages nearest by their own cosine whose sentences are ranked (with full text's candidates): the
     * sentences of a whole large workspace would take most of a question's time (docs/chatbot.md, "Evaluation").
     */
    static final int SENTENCE_POOL = 200;
    /** Full-text matches ranked at most: past this many, PostgreSQL's ranking, not the index, takes the time. */
    static final int RANKED = 500;
    private static final int RRF_K = 60;
    /** Full text's share of the fusion: on paraphrased questions its ranking is the weaker of the two. */
    private static final double FULL_TEXT_WEIGHT = 0.5;

    private final Supplier<PluginContext> context;
    private final KnowledgeRepository repo;
    private final Embedder embedder;
    private final VectorCache cache;

    Retriever(Supplier<PluginContext> context, KnowledgeRepository repo, Embedder embedder, VectorCache cache) {
        this.context = context;
        this.repo = repo;
        this.embedder = embedder;
        this.cache = cache;
    }

    /**
     * A relevant passage with its cosine (for a passage kept by one of its sentences, that sentence's) and fused
     * score.
     */
    record Found(KnowledgeRepository.Stored stored, double cosine, double fused) {
    }

    /** Which rankings to use: both (the default), or one of them alone (the evaluation compares them). */
    enum Mode { HYBRID, FULL_TEXT, SEMANTIC }

    List<Found> retrieve(UUID ws, String language, String fallbackLanguage, String question, int limit) {
        return retrieve(ws, language, fallbackLanguage, question, limit, Mode.HYBRID);
    }

    List<Found> retrieve(UUID ws, String language, String fallbackLanguage, String question, int limit, Mode mode) {
        Mode used = modeFor(language, mode);
        float[] query = used == Mode.FULL_TEXT ? null : embedder.embed(question);
        return context.get().inWorkspace(ws, tx -> search(tx.handle(), ws, language, fallbackLanguage, question, query,
                limit, used));
    }

    /** The same inside a transaction the caller holds (an API request's). */
    List<Found> retrieve(Handle h, UUID ws, String language, String question, int limit, Mode mode) {
        Mode used = modeFor(language, mode);
        return search(h, ws, language, language, question, used == Mode.FULL_TEXT ? null : embedder.embed(question),
                limit, used);
    }

    /**
     * Hybrid retrieval for a question in a language the embedding model does not read is full text alone: the model's
     * cosine between, say, a German question and a German passage says little (often below {@link #FLOOR} for the
     * very passage the question is about), so neither its ranking nor its floor may decide. Full text in the
     * question's own text-search configuration (stemming, stop words) does. An explicit mode is kept as asked.
     */
    static Mode modeFor(String language, Mode asked) {
        return asked == Mode.HYBRID && !Embedder.reads(language) ? Mode.FULL_TEXT : asked;
    }

    /**
     * Whether at least half of the question's words appear in none of the workspace's passages (the words stemmed by
     * PostgreSQL, looked up in the vocabulary kept with the workspace's vectors): the higher floors apply. Only hybrid
     * retrieval asks.
     */
    private boolean unfamiliar(Handle h, VectorIndex index, String language, String question, Mode mode) {
        if (mode != Mode.HYBRID) {
            return false;
        }
        List<String> words = repo.lexemes(h, language, question);
        long unknown = words.stream().filter(w -> !index.vocabulary.contains(w)).count();
        return !words.isEmpty() && 2 * unknown >= words.size();
    }

    /** Full text in the language, else in the fallback language when nothing matched. */
    private List<UUID> fullText(Handle h, String language, String fallbackLanguage, String query) {
        if (query.isEmpty()) {
            return List.of();
        }
        List<UUID> found = repo.fullText(h, language, query, CANDIDATES, RANKED);
        if (found.isEmpty() && fallbackLanguage != null && !fallbackLanguage.equals(language)) {
            found = repo.fullText(h, fallbackLanguage, query, CANDIDATES, RANKED);
        }
        return found;
    }

    private List<Found> search(Handle h, UUID ws, String language, String fallbackLanguage, String question,
            float[] query, int limit, Mode mode) {
        {
            VectorIndex index = cache.index(h, ws);
            List<UUID> fullText = List.of();
            if (mode != Mode.SEMANTIC) {
                fullText = fullText(h, language, fallbackLanguage, KnowledgeResponder.andQuery(question));
                if (fullText.isEmpty() && mode == Mode.FULL_TEXT) {
                    fullText = fullText(h, language, fallbackLanguage, KnowledgeResponder.orQuery(question));
                }
            }
            List<VectorIndex.Scored> pool = mode == Mode.FULL_TEXT ? List.of()
                    : index.nearest(query, mode == Mode.HYBRID ? SENTENCE_POOL : CANDIDATES);
            List<VectorIndex.Scored> nearest = pool.subList(0, Math.min(CANDIDATES, pool.size()));
            List<VectorIndex.Scored> bySentence = List.of();
            if (mode == Mode.HYBRID) {
                List<UUID> among = new ArrayList<>(pool.stream().map(VectorIndex.Scored::id).toList());
                among.addAll(fullText);
                bySentence = index.nearestBySentence(query, among, CANDIDATES);
            }
            Map<UUID, Double> fused = new LinkedHashMap<>();
            Map<UUID, Double> cosine = new HashMap<>();
            for (int r = 0; r < nearest.size(); r++) {
                fused.merge(nearest.get(r).id(), 1.0 / (RRF_K + r + 1), Double::sum);
                cosine.put(nearest.get(r).id(), nearest.get(r).cosine());
            }
            for (int r = 0; r < bySentence.size(); r++) {
                fused.merge(bySentence.get(r).id(), 1.0 / (RRF_K + r + 1), Double::sum);
                cosine.computeIfAbsent(bySentence.get(r).id(), id -> index.cosine(query, id));
            }
            for (int r = 0; r < fullText.size(); r++) {
                fused.merge(fullText.get(r), FULL_TEXT_WEIGHT / (RRF_K + r + 1), Double::sum);
                cosine.computeIfAbsent(fullText.get(r), id -> query == null ? 0 : index.cosine(query, id));
            }
            List<UUID> ranked = new ArrayList<>(fused.keySet());
            ranked.sort(Comparator.comparingDouble((UUID id) -> -fused.get(id)));
            boolean unfamiliar = unfamiliar(h, index, language, question, mode);
            double floor = mode == Mode.FULL_TEXT ? -1 : unfamiliar ? UNFAMILIAR_FLOOR : FLOOR;
            double sentenceFloor = unfamiliar ? UNFAMILIAR_SENTENCE_FLOOR : SENTENCE_FLOOR;
            List<UUID> kept = new ArrayList<>();
            for (UUID id : ranked) {
                if (cosine.get(id) >= floor) {
                    kept.add(id);
                } else if (mode == Mode.HYBRID) {
                    double sentence = index.bestSentence(query, id);
                    if (sentence >= sentenceFloor) {
                        cosine.put(id, sentence);
                        kept.add(id);
                    }
                }
                if (kept.size() == limit) {
                    break;
                }
            }
            List<Found> out = new ArrayList<>();
            for (var stored : repo.passages(h, ws, kept)) {
                out.add(new Found(stored, cosine.get(stored.id()), fused.get(stored.id())));
            }
            return out;
        }
    }
}
