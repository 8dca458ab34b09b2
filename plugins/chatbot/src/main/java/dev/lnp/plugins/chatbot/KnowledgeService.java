package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.outbound.OutboundGuard;
import dev.lnp.api.outbound.OutboundRefusal;
import dev.lnp.api.workspace.WorkspaceTx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/** The workspace's knowledge sources, as the API and the pages change them; indexing happens in the background. */
final class KnowledgeService {

    private final KnowledgeRepository repo;
    private final Supplier<Retriever> retriever;
    private final Supplier<OutboundGuard> guard;

    KnowledgeService(KnowledgeRepository repo, Supplier<Retriever> retriever, Supplier<OutboundGuard> guard) {
        this.repo = repo;
        this.retriever = retriever;
        this.guard = guard;
    }

    Map<String, Object> progress(WorkspaceTx tx) {
        var p = repo.progress(tx.handle(), tx.workspaceId());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sources", p.sources());
        m.put("pending", p.pending() + p.indexing());
        m.put("indexed", p.indexed());
        m.put("failed", p.failed());
        m.put("passages", p.passages());
        m.put("drafts", p.drafts());
        return m;
    }

    WidgetService.Listing list(WorkspaceTx tx, PageRequest page) {
        return new WidgetService.Listing(repo.listSources(tx.handle(), tx.workspaceId(), page.limit(), page.offset()),
                Page.of(page, repo.countSources(tx.handle(), tx.workspaceId())));
    }

    Map<String, Object> get(WorkspaceTx tx, UUID id) {
        return repo.findSource(tx.handle(), tx.workspaceId(), id)
                .orElseThrow(() -> ApiProblem.notFound("knowledge source " + id));
    }

    Map<String, Object> create(WorkspaceTx tx, JsonNode body) {
        String kind = body.path("kind").asText("article");
        if (kind.equals("url")) {
            return createPage(tx, body);
        }
        if (kind.equals("sitemap")) {
            return createSitemap(tx, body);
        }
        if (text(body, "content") == null) {
            throw ApiProblem.invalidField("/content", "required", "Write the text, or paste the whole file.");
        }
        if (body.has("urls")) {
            throw ApiProblem.invalidField("/urls", "not_allowed", "A list of addresses is a sitemap's: choose the "
                    + "format sitemap.");
        }
        String content = body.get("content").asText();
        String title = text(body, "title");
        if (title == null) {
            title = titleOf(kind, content);
        }
        return repo.insertSource(tx.handle(), tx.workspaceId(), kind, title, text(body, "url"),
                body.path("language").asText("en"), content);
    }

    /** One web page: its address checked now, fetched by the indexer. */
    private Map<String, Object> createPage(WorkspaceTx tx, JsonNode body) {
        if (body.has("content") || body.has("urls")) {
            String field = body.has("content") ? "/content" : "/urls";
            throw ApiProblem.invalidField(field, "not_allowed", "A web page's text is fetched from its address: "
                    + "give only its url.");
        }
        String url = requireUrl(body, "Give the page's address (http:// or https://).");
        String title = text(body, "title");
        return repo.insertSource(tx.handle(), tx.workspaceId(), "url", title == null ? url : title, title == null,
                url, body.path("language").asText("en"), "", null);
    }

    /**
     * A sitemap: either its address ({@code url}, fetched by the indexer), its XML pasted ({@code content}) or a list
     * of page addresses ({@code urls}); at most {@link PageFetcher#MAX_SITEMAP_URLS} pages. A list or pasted XML is
     * checked here, so a mistake is named at its field at once.
     */
    private Map<String, Object> createSitemap(WorkspaceTx tx, JsonNode body) {
        int given = (body.hasNonNull("url") ? 1 : 0) + (body.has("urls") ? 1 : 0) + (body.hasNonNull("content") ? 1 : 0);
        if (given != 1) {
            throw ApiProblem.invalidField(body.has("urls") ? "/urls" : "/url", given == 0 ? "required" : "one_of",
                    "Give the sitemap's address (url), or its XML (content), or the pages' addresses (urls): one "
                            + "of them.");
        }
        String language = body.path("language").asText("en");
        String title = text(body, "title");
        if (body.hasNonNull("url")) {
            String url = requireUrl(body, "Give the sitemap's address (http:// or https://).");
            return repo.insertSource(tx.handle(), tx.workspaceId(), "sitemap", title == null ? url : title, false,
                    url, language, "", null);
        }
        List<String> urls = new ArrayList<>();
        String content;
        if (body.has("urls")) {
            JsonNode list = body.get("urls");
            if (list.size() > PageFetcher.MAX_SITEMAP_URLS) {
                throw tooMany("/urls", list.size());
            }
            for (int i = 0; i < list.size(); i++) {
                String u = list.get(i).asText().strip();
                check("/urls/" + i, u);
                if (!urls.contains(u)) {
                    urls.add(u);
                }
            }
            if (urls.isEmpty()) {
                throw ApiProblem.invalidField("/urls", "required", "List at least one page's address.");
            }
            content = String.join("\n", urls);
        } else {
            content = body.get("content").asText();
            try {
                urls = PageFetcher.sitemapUrls(content);
            } catch (PageFetcher.FetchFailed e) {
                throw ApiProblem.invalidField("/content", e.getMessage().contains("at most") ? "too_many" : "sitemap",
                        e.getMessage());
            }
            for (String u : urls) {
                check("/content", u);
            }
        }
        return repo.insertSource(tx.handle(), tx.workspaceId(), "sitemap",
                title == null ? "Pages (" + urls.size() + ")" : title, false, null, language, content, null);
    }

    private static ApiProblem tooMany(String pointer, int count) {
        return ApiProblem.invalidField(pointer, "too_many", "At most " + PageFetcher.MAX_SITEMAP_URLS
                + " pages at once: this lists " + count + ".");
    }

    private String requireUrl(JsonNode body, String missing) {
        String url = text(body, "url");
        if (url == null) {
            throw ApiProblem.invalidField("/url", "required", missing);
        }
        check("/url", url);
        return url;
    }

    /** An address the platform will fetch: refused now when the guard refuses it (an internal network). */
    private void check(String pointer, String url) {
        try {
            guard.get().check(url);
        } catch (OutboundRefusal refused) {
            throw ApiProblem.invalidField(pointer, refused.rule(), refused.getMessage());
        }
    }

    /** Fetches a page or sitemap again, in the background; an unchanged page keeps its passages and embeddings. */
    Map<String, Object> refresh(WorkspaceTx tx, UUID id) {
        Map<String, Object> current = get(tx, id);
        if (!List.of("url", "sitemap").contains(current.get("kind"))) {
            throw ApiProblem.conflict("not_fetched", "Only web pages and sitemaps are fetched from their address; "
                    + "change this source's text instead.");
        }
        return repo.refresh(tx.handle(), tx.workspaceId(), id)
                .orElseThrow(() -> ApiProblem.notFound("knowledge source " + id));
    }

    /** An approved draft is indexed and answered from. */
    Map<String, Object> approve(WorkspaceTx tx, UUID id) {
        Map<String, Object> current = get(tx, id);
        if (!"draft".equals(current.get("status"))) {
            throw ApiProblem.conflict("not_a_draft", "This source is not a draft waiting for approval.");
        }
        return repo.approve(tx.handle(), tx.workspaceId(), id)
                .orElseThrow(() -> ApiProblem.notFound("knowledge source " + id));
    }

    List<Map<String, Object>> drafts(WorkspaceTx tx) {
        return repo.drafts(tx.handle(), tx.workspaceId(), 100);
    }

    Map<String, Object> update(WorkspaceTx tx, UUID id, JsonNode patch) {
        Map<String, Object> current = get(tx, id);
        if (current.get("kind").equals("widget_article")) {
            throw ApiProblem.conflict("widget_article", "This source is a widget's article: change it through the "
                    + "widget's articles.");
        }
        if (patch.has("urls")) {
            throw ApiProblem.invalidField("/urls", "not_allowed", "A list of addresses is given when a sitemap is "
                    + "imported; import the new pages, or change a list's text (its addresses, one a line).");
        }
        if (current.get("kind").equals("url") && patch.has("content")) {
            throw ApiProblem.invalidField("/content", "not_allowed", "A web page's text is fetched from its "
                    + "address: change the page, then fetch it again.");
        }
        if (List.of("url", "sitemap").contains(current.get("kind")) && patch.hasNonNull("url")) {
            check("/url", patch.get("url").asText());
        }
        String content = patch.has("content") ? patch.get("content").asText() : (String) current.get("content");
        String title = patch.has("title") ? patch.get("title").asText() : (String) current.get("title");
        String url = patch.has("url") ? (patch.get("url").isNull() ? null : patch.get("url").asText())
                : (String) current.get("url");
        String language = patch.has("language") ? patch.get("language").asText() : (String) current.get("language");
        return repo.updateSource(tx.handle(), tx.workspaceId(), id, title, url, language, content)
                .orElseThrow(() -> ApiProblem.notFound("knowledge source " + id));
    }

    Map<String, Object> delete(WorkspaceTx tx, UUID id) {
        Map<String, Object> current = get(tx, id);
        if (current.get("kind").equals("widget_article")) {
            throw ApiProblem.conflict("widget_article", "This source is a widget's article: delete it through the "
                    + "widget's articles.");
        }
        repo.deleteSource(tx.handle(), tx.workspaceId(), id);
        return Map.of("id", id, "deleted", true);
    }

    /** What the knowledge answers to a question: the relevant passages, best first (none: nothing relevant). */
    List<Map<String, Object>> ask(WorkspaceTx tx, JsonNode body) {
        String language = body.path("language").asText("en");
        List<Map<String, Object>> out = new ArrayList<>();
        var mode = Retriever.Mode.valueOf(body.path("mode").asText("hybrid").toUpperCase(java.util.Locale.ROOT));
        for (var found : retriever.get().retrieve(tx.handle(), tx.workspaceId(), language, body.get("question").asText(),
                5, mode)) {
            Passage p = found.stored().passage();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("source_id", found.stored().sourceId());
            m.put("title", p.title());
            m.put("section", p.heading());
            m.put("url", p.link(found.stored().url()));
            m.put("text", p.text());
            m.put("similarity", Math.round(found.cosine() * 1000) / 1000.0);
            out.add(m);
        }
        return out;
    }

    /** A file's own title: its first level-1 heading, or its {@code <title>}; a typed article needs one given. */
    private static String titleOf(String kind, String content) {
        MarkdownText.Document doc = switch (kind) {
            case "html" -> HtmlText.parse(content);
            case "markdown" -> MarkdownText.parse(content);
            default -> throw ApiProblem.invalidField("/title", "required", "An article needs a title.");
        };
        if (doc.title() == null || doc.title().isBlank()) {
            throw ApiProblem.invalidField("/title", "required", "The file has no title of its own (a first # "
                    + "heading, or <title>): give one.");
        }
        return doc.title().length() > 300 ? doc.title().substring(0, 300) : doc.title();
    }

    private static String text(JsonNode body, String field) {
        JsonNode v = body.get(field);
        return v == null || v.isNull() || v.asText().isBlank() ? null : v.asText().strip();
    }
}
