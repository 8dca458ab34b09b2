package dev.lnp.plugins.chatbot;

import dev.lnp.api.PluginContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The background indexer (the plugin's {@code knowledge-indexer} worker): takes pending sources one at a time on
 * any node, cuts them into passages, embeds only the passages whose content hash is new (an edited article keeps the
 * embeddings of its unchanged passages), and replaces the source's passages in one transaction. Embedding runs
 * outside any transaction; a source changed meanwhile is left pending and indexed again on the next pass.
 */
final class KnowledgeIndexer {

    private static final Logger LOG = Logger.getLogger(KnowledgeIndexer.class.getName());
    static final Duration LEASE = Duration.ofMinutes(2);
    /** Sources one run takes before it yields to the interval (keeps a run bounded on a big import). */
    private static final int PER_RUN = 500;

    private final Supplier<PluginContext> context;
    private final KnowledgeRepository repo;
    private final Embedder embedder;

    KnowledgeIndexer(Supplier<PluginContext> context, KnowledgeRepository repo, Embedder embedder) {
        this.context = context;
        this.repo = repo;
        this.embedder = embedder;
    }

    /** One run: indexes pending sources until none is left (or the run's share is done); the count indexed. */
    int run() throws InterruptedException {
        int done = 0;
        while (done < PER_RUN) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            Optional<KnowledgeRepository.Claim> claim = context.get().acrossWorkspaces(h -> repo.claim(h, LEASE));
            if (claim.isEmpty()) {
                break;
            }
            index(claim.get());
            done++;
        }
        return done;
    }

    private void index(KnowledgeRepository.Claim claim) {
        var ctx = context.get();
        var read = ctx.inWorkspace(claim.workspaceId(), tx -> repo.sourceText(tx.handle(), claim.workspaceId(),
                claim.sourceId()).map(s -> Map.entry(s, repo.embeddingsByHash(tx.handle(), claim.workspaceId(),
                claim.sourceId()))));
        if (read.isEmpty()) {
            return;                                 // deleted since it was claimed
        }
        var source = read.get().getKey();
        try {
            List<Passage> passages = passagesOf(source);
            List<KnowledgeRepository.Indexed> indexed = embed(passages, source, read.get().getValue());
            boolean stored = ctx.inWorkspace(claim.workspaceId(), tx -> repo.replacePassages(tx.handle(),
                    claim.workspaceId(), claim.sourceId(), source.updatedAt(), source.url(), source.language(), indexed));
            if (!stored) {
                LOG.fine(() -> "knowledge: source " + claim.sourceId() + " changed while indexed; indexed again next");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "knowledge: indexing source " + claim.sourceId() + " failed", e);
            ctx.inWorkspace(claim.workspaceId(), tx -> {
                repo.markFailed(tx.handle(), claim.workspaceId(), claim.sourceId(), source.updatedAt(),
                        String.valueOf(e.getMessage()));
                return null;
            });
        }
    }

    /** The source's passages, as its kind is read: Markdown, HTML, or an article's plain paragraphs. */
    static List<Passage> passagesOf(KnowledgeRepository.SourceText source) {
        MarkdownText.Document doc = switch (source.kind()) {
            case "html" -> HtmlText.parse(source.content());
            default -> MarkdownText.parse(source.content());
        };
        String title = source.title() == null || source.title().isBlank()
                ? (doc.title() == null ? "Untitled" : doc.title()) : source.title();
        return Chunker.passages(title, doc.sections());
    }

    private List<KnowledgeRepository.Indexed> embed(List<Passage> passages, KnowledgeRepository.SourceText source,
            Map<String, byte[]> known) {
        List<byte[]> hashes = new ArrayList<>();
        List<String> toEmbed = new ArrayList<>();
        for (Passage p : passages) {
            byte[] hash = hash(p, source);
            hashes.add(hash);
            if (!known.containsKey(HexFormat.of().formatHex(hash))) {
                toEmbed.add(p.embeddingText());
            }
        }
        List<float[]> fresh = toEmbed.isEmpty() ? List.of() : embedder.embedAll(toEmbed);
        List<KnowledgeRepository.Indexed> out = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < passages.size(); i++) {
            byte[] old = known.get(HexFormat.of().formatHex(hashes.get(i)));
            byte[] vector = old != null ? old : Embedder.bytes(fresh.get(next++));
            out.add(new KnowledgeRepository.Indexed(passages.get(i), hashes.get(i), vector));
        }
        return out;
    }

    /** What the embedding depends on: the text the model reads. */
    static byte[] hash(Passage p, KnowledgeRepository.SourceText source) {
        try {
            var md = MessageDigest.getInstance("SHA-256");
            md.update(p.embeddingText().getBytes(StandardCharsets.UTF_8));
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
