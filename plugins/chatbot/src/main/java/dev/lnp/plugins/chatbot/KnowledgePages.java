package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The knowledge pages of the application ({@code /app/chat/knowledge}): how far indexing is, the sources with their
 * status, a form to write an article and one to import a Markdown or HTML file, a page per source. Over the same
 * {@link KnowledgeService} and schemas as the API.
 */
record KnowledgePages(KnowledgeService service, KnowledgeRoutes routes) {

    static final String BASE = "/app/chat/knowledge";
    private static final String READ = ChatbotScopes.READ;
    private static final String WRITE = ChatbotScopes.WRITE;

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(BASE).scope(READ).nav("Support", "Chat knowledge").renderer(this::overview),
                // ?title= starts the form with a title: the chat insights page links an unanswered question here.
                PageRoute.view(BASE + "/new").scope(WRITE).renderer(call -> {
                    ObjectNode values = Json.object().put("kind", "article");
                    call.query("title").map(String::strip).filter(t -> !t.isEmpty())
                            .ifPresent(t -> values.put("title", t.length() <= 200 ? t : t.substring(0, 200)));
                    return new FormView("New article", routes.textCreate, values, "Add article", BASE);
                }),
                PageRoute.action(BASE + "/new").scope(WRITE).form(routes.textCreate).action((call, values) -> {
                    var created = service.create(call.tx(), values);
                    return PageOutcome.goTo(BASE + "/" + created.get("id"),
                            "Added. It is being indexed: this page shows when it is done.");
                }),
                PageRoute.view(BASE + "/import").scope(WRITE).renderer(call -> new FormView(
                        "Import a Markdown or HTML file", routes.textCreate,
                        Json.object().put("kind", "markdown"), "Import", BASE)),
                PageRoute.action(BASE + "/import").scope(WRITE).form(routes.textCreate).action((call, values) -> {
                    var created = service.create(call.tx(), values);
                    return PageOutcome.goTo(BASE + "/" + created.get("id"),
                            "Imported. It is being indexed: this page shows when it is done.");
                }),
                PageRoute.view(BASE + "/web").scope(WRITE).renderer(call -> new FormView(
                        "Import web pages", routes.webCreate, Json.object().put("kind", "url"), "Import", BASE)),
                PageRoute.action(BASE + "/web").scope(WRITE).form(routes.webCreate).action((call, values) -> {
                    var created = service.create(call.tx(), values);
                    return PageOutcome.goTo(BASE + "/" + created.get("id"), "Imported. The pages are fetched and "
                            + "indexed in the background: this page shows when it is done.");
                }),
                PageRoute.action(BASE + "/{id}/refresh").scope(WRITE).button().action((call, values) -> {
                    service.refresh(call.tx(), call.pathId("id"));
                    return PageOutcome.goTo(BASE + "/" + call.pathId("id"), "It is fetched again in the background. "
                            + "An unchanged page keeps its passages.");
                }),
                PageRoute.action(BASE + "/{id}/approve").scope(WRITE).button().action((call, values) -> {
                    service.approve(call.tx(), call.pathId("id"));
                    return PageOutcome.goTo(BASE + "/" + call.pathId("id"), "Approved. It is being indexed, then "
                            + "the chat answers from it.");
                }),
                PageRoute.view(BASE + "/{id}").scope(READ).renderer(this::source),
                PageRoute.view(BASE + "/{id}/edit").scope(WRITE).renderer(call -> {
                    ObjectNode row = row(service.get(call.tx(), call.pathId("id")));
                    return new FormView("Edit " + row.path("title").asText(), routes.sourcePatch, row, "Save",
                            BASE + "/" + call.pathId("id"));
                }),
                PageRoute.action(BASE + "/{id}/edit").scope(WRITE).form(routes.sourcePatch).action((call, values) -> {
                    service.update(call.tx(), call.pathId("id"), values);
                    return PageOutcome.goTo(BASE + "/" + call.pathId("id"), "Saved. It is being indexed again.");
                }),
                PageRoute.action(BASE + "/{id}/delete").scope(WRITE).button().action((call, values) -> {
                    var deleted = service.get(call.tx(), call.pathId("id"));
                    service.delete(call.tx(), call.pathId("id"));
                    return PageOutcome.goTo(BASE, "draft".equals(deleted.get("status")) ? "The draft was discarded."
                            : "The source and its passages were deleted.");
                }));
    }

    private DetailView overview(PageCall call) {
        Map<String, Object> p = service.progress(call.tx());
        long pending = ((Number) p.get("pending")).longValue();
        var page = service.list(call.tx(), call.page());
        ListView drafts = ListView.of("Drafts from resolved tickets", List.of(
                        Column.of("Question", "title").linkedTo(BASE + "/{id}"), Column.of("Drafted", "created_at")),
                service.drafts(call.tx()).stream().map(KnowledgePages::row).toList(), false)
                .emptyText("No draft waiting. When a ticket from a chat hand-off is solved or closed, the visitor's "
                        + "question and the team's reply wait here; the chat answers from one only once approved.");
        ListView sources = ListView.of("Sources", List.of(
                        Column.of("Title", "title").linkedTo(BASE + "/{id}"), Column.of("Format", "kind"),
                        Column.of("Status", "status"), Column.of("Passages", "passages"),
                        Column.of("Indexed", "indexed_at")),
                page.items().stream().map(KnowledgePages::row).toList(), page.page().hasMore())
                .emptyText("No knowledge yet. Every chat widget of the workspace answers from the articles and "
                        + "files added here.");
        DetailView view = DetailView.of("Chat knowledge", List.of(
                new Field("Indexing", pending == 0 ? "Up to date" : pending + " of " + p.get("sources")
                        + " sources waiting to be indexed (reload to follow)"),
                new Field("Sources", p.get("sources") + " (" + p.get("indexed") + " indexed, " + p.get("failed")
                        + " failed)"),
                new Field("Passages", String.valueOf(p.get("passages"))),
                new Field("Drafts", p.get("drafts") + " waiting for approval")))
                .related(drafts, sources);
        if (call.may(WRITE)) {
            view = view.actions(Link.to("New article", BASE + "/new"), Link.to("Import a file", BASE + "/import"),
                    Link.to("Import web pages", BASE + "/web"));
        }
        return view;
    }

    private DetailView source(PageCall call) {
        ObjectNode s = row(service.get(call.tx(), call.pathId("id")));
        String self = BASE + "/" + call.pathId("id");
        List<Field> fields = new ArrayList<>(List.of(
                new Field("Format", s.path("kind").asText()),
                new Field("Status", (s.path("status").asText().equals("draft")
                        ? "draft: not answered from until approved" : s.path("status").asText())
                        + (s.path("error").isTextual() ? ": " + s.path("error").asText() : "")),
                new Field("Passages", s.path("passages").asText()),
                new Field("Language", s.path("language").asText()),
                new Field("Address", s.path("url").isTextual() ? s.path("url").asText() : "None"),
                new Field("Indexed", s.path("indexed_at").isTextual() ? s.path("indexed_at").asText() : "Not yet"),
                new Field("Text", s.path("content").asText())));
        if (s.path("fetched_at").isTextual()) {
            fields.add(4, new Field("Fetched", s.path("fetched_at").asText()));
        }
        if (s.path("question").isTextual()) {
            fields.add(1, new Field("Visitor's question", s.path("question").asText()));
        }
        DetailView view = DetailView.of(s.path("title").asText(), fields);
        List<Link> links = new ArrayList<>(List.of(Link.to("All knowledge", BASE)));
        String kind = s.path("kind").asText();
        if (call.may(WRITE) && s.path("status").asText().equals("draft")) {
            links.add(Link.post("Approve", self + "/approve", "The chat answers from it once it is indexed."));
            links.add(Link.to("Edit", self + "/edit"));
            links.add(Link.post("Discard", self + "/delete", "The draft is deleted."));
        } else if (call.may(WRITE) && !kind.equals("widget_article")) {
            if (kind.equals("url") || kind.equals("sitemap")) {
                links.add(Link.post("Fetch again", self + "/refresh", "The address is fetched again in the "
                        + "background."));
            }
            if (!kind.equals("url")) {
                links.add(Link.to("Edit", self + "/edit"));
            }
            links.add(Link.post("Delete", self + "/delete", kind.equals("sitemap")
                    ? "The sitemap, its pages and their passages are deleted." : "The source and its passages are "
                    + "deleted."));
        }
        return view.actions(links.toArray(Link[]::new));
    }

    private static ObjectNode row(Map<String, Object> values) {
        return (ObjectNode) Json.mapper().valueToTree(values);
    }
}
