package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.PageRequest;
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

    KnowledgeService(KnowledgeRepository repo, Supplier<Retriever> retriever) {
        this.repo = repo;
        this.retriever = retriever;
    }

    Map<String, Object> progress(WorkspaceTx tx) {
        var p = repo.progress(tx.handle(), tx.workspaceId());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sources", p.sources());
        m.put("pending", p.pending() + p.indexing());
        m.put("indexed", p.indexed());
        m.put("failed", p.failed());
        m.put("passages", p.passages());
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
        String content = body.get("content").asText();
        String title = text(body, "title");
        if (title == null) {
            title = titleOf(kind, content);
        }
        return repo.insertSource(tx.handle(), tx.workspaceId(), kind, title, text(body, "url"),
                body.path("language").asText("en"), content);
    }

    Map<String, Object> update(WorkspaceTx tx, UUID id, JsonNode patch) {
        Map<String, Object> current = get(tx, id);
        if (current.get("kind").equals("widget_article")) {
            throw ApiProblem.conflict("widget_article", "This source is a widget's article: change it through the "
                    + "widget's articles.");
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
