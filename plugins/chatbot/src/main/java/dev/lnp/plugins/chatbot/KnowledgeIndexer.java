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
    private final PageFetcher fetcher;

    KnowledgeIndexer(Supplier<PluginContext> context, KnowledgeRepository repo, Embedder embedder,
            PageFetcher fetcher) {
        this.context = context;
        this.repo = repo;
        this.embedder = embedder;
        this.fetcher = fetcher;
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
        var read0 = read.get().getKey();
        try {
            if (read0.kind().equals("sitemap")) {
                readSitemap(claim, read0);
                return;
            }
            var source = read0;
            byte[] fetchedHash = null;
            String pageTitle = null;
            if (source.kind().equals("url")) {
                // Fetched outside any transaction, like the embedding.
                var page = fetcher.page(source.url());
                fetchedHash = sha256(page.body());
                if (java.util.Arrays.equals(fetchedHash, source.contentHash())) {
                    ctx.inWorkspace(claim.workspaceId(), tx -> repo.markUnchanged(tx.handle(), claim.workspaceId(),
                            claim.sourceId(), read0.updatedAt()));
                    return;
                }
                var doc = HtmlText.parse(page.body());
                pageTitle = doc.title() == null || doc.title().isBlank() ? null
                        : doc.title().length() > 300 ? doc.title().substring(0, 300) : doc.title();
                source = new KnowledgeRepository.SourceText("html", source.titleAuto() && pageTitle != null
                        ? pageTitle : source.title(), source.url(), source.language(), page.body(),
                        source.updatedAt());
            }
            var parsed = source;
            List<Passage> passages = passagesOf(parsed);
            List<KnowledgeRepository.Indexed> indexed = embed(passages, parsed, read.get().getValue());
            byte[] hash = fetchedHash;
            String title = pageTitle;
            boolean stored = ctx.inWorkspace(claim.workspaceId(), tx -> {
                boolean replaced = repo.replacePassages(tx.handle(), claim.workspaceId(), claim.sourceId(),
                        parsed.updatedAt(), parsed.url(), parsed.language(), indexed);
                if (replaced && hash != null) {
                    repo.storeFetched(tx.handle(), claim.workspaceId(), claim.sourceId(), parsed.content(), hash,
                            title);
                }
                return replaced;
            });
            if (!stored) {
                LOG.fine(() -> "knowledge: source " + claim.sourceId() + " changed while indexed; indexed again next");
            }
        } catch (PageFetcher.FetchFailed e) {
            LOG.info(() -> "knowledge: fetching source " + claim.sourceId() + " failed: " + e.getMessage());
            ctx.inWorkspace(claim.workspaceId(), tx -> {
                repo.markFailed(tx.handle(), claim.workspaceId(), claim.sourceId(), read0.updatedAt(), e.getMessage());
                return null;
            });
        } catch (RuntimeException e) {
            var source = read0;
            LOG.log(Level.WARNING, "knowledge: indexing source " + claim.sourceId() + " failed", e);
            ctx.inWorkspace(claim.workspaceId(), tx -> {
                repo.markFailed(tx.handle(), claim.workspaceId(), claim.sourceId(), source.updatedAt(),
                        String.valueOf(e.getMessage()));
                return null;
            });
        }
    }

    /**
     * A sitemap: its XML fetched from its address (or the list or XML given when it was created, kept as its
     * content), its pages made {@code url} sources of their own, which the next runs fetch.
     */
    private void readSitemap(KnowledgeRepository.Claim claim, KnowledgeRepository.SourceText sitemap)
            throws PageFetcher.FetchFailed {
        String content = sitemap.content();
        List<String> urls;
        if (sitemap.url() != null && !sitemap.url().isBlank()) {
            content = fetcher.sitemap(sitemap.url()).body();
            urls = PageFetcher.sitemapUrls(content);
        } else if (content.stripLeading().startsWith("<")) {
            urls = PageFetcher.sitemapUrls(content);
        } else {
            urls = content.lines().map(String::strip).filter(l -> !l.isEmpty()).distinct().toList();
        }
        String read = content;
        context.get().inWorkspace(claim.workspaceId(), tx -> {
            if (repo.markSitemapRead(tx.handle(), claim.workspaceId(), claim.sourceId(), sitemap.updatedAt(), read)) {
                repo.upsertPages(tx.handle(), claim.workspaceId(), claim.sourceId(), sitemap.language(), urls);
            }
            return null;
        });
    }

    static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The source's passages, as its kind is read: Markdown, HTML, or an article's plain paragraphs. */
    static List<Passage> passagesOf(KnowledgeRepository.SourceText source) {
        MarkdownText.Document doc = switch (source.kind()) {
            case "html", "url" -> HtmlText.parse(source.content());
            default -> MarkdownText.parse(source.content());
        };
        String title = source.title() == null || source.title().isBlank()
                ? (doc.title() == null ? "Untitled" : doc.title()) : source.title();
        return Chunker.passages(title, doc.sections());
    }

    private List<KnowledgeRepository.Indexed> embed(List<Passage> passages, KnowledgeRepository.SourceText source,
            Map<String, KnowledgeRepository.Vectors> known) {
        List<byte[]> hashes = new ArrayList<>();
        List<String> toEmbed = new ArrayList<>();
        List<Integer> sentenceTexts = new ArrayList<>();
        for (Passage p : passages) {
            byte[] hash = hash(p, source);
            hashes.add(hash);
            if (!known.containsKey(HexFormat.of().formatHex(hash))) {
                // The passage, then its sentences (two texts each), in one batch.
                List<String> sentences = p.sentenceTexts();
                toEmbed.add(p.embeddingText());
                toEmbed.addAll(sentences);
                sentenceTexts.add(sentences.size());
            }
        }
        List<float[]> fresh = toEmbed.isEmpty() ? List.of() : embedder.embedAll(toEmbed);
        List<KnowledgeRepository.Indexed> out = new ArrayList<>();
        int next = 0;
        int embedded = 0;
        for (int i = 0; i < passages.size(); i++) {
            var old = known.get(HexFormat.of().formatHex(hashes.get(i)));
            if (old != null) {
                out.add(new KnowledgeRepository.Indexed(passages.get(i), hashes.get(i), old.embedding(),
                        old.sentences()));
                continue;
            }
            byte[] vector = Embedder.bytes(fresh.get(next++));
            int n = sentenceTexts.get(embedded++);
            float[] sentences = new float[n * Embedder.DIMENSIONS];
            for (int k = 0; k < n; k++) {
                System.arraycopy(fresh.get(next++), 0, sentences, k * Embedder.DIMENSIONS, Embedder.DIMENSIONS);
            }
            out.add(new KnowledgeRepository.Indexed(passages.get(i), hashes.get(i), vector,
                    Embedder.bytes(sentences)));
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
