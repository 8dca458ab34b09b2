package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.RouteSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The management API of the workspace's knowledge, under {@code /api/v1/chatbot/knowledge}. */
final class KnowledgeRoutes {

    static final String BASE = "/api/v1/chatbot/knowledge";

    private final KnowledgeService service;
    final JsonNode sourceCreate = JsonSchemas.load(KnowledgeRoutes.class, "knowledge-source-create.json");
    final ObjectNode sourcePatch = JsonSchemas.patchOf(sourceCreate, "Knowledge source update",
            Set.of("title", "url", "language", "content"));
    final JsonNode question = JsonSchemas.load(KnowledgeRoutes.class, "knowledge-question.json");
    /** What the routes answer: the indexing progress, a source, the passages found, a deletion. */
    final JsonNode progress = JsonSchemas.load(KnowledgeRoutes.class, "knowledge-progress.json");
    final JsonNode source = JsonSchemas.load(KnowledgeRoutes.class, "knowledge-source.json");
    final JsonNode found = JsonSchemas.load(KnowledgeRoutes.class, "knowledge-search.json");
    final JsonNode deleted = JsonSchemas.deleted();
    /** The pages' forms: a typed or pasted text; a web page or sitemap (the API's schema holds both). */
    final ObjectNode textCreate = formOf(sourceCreate, "Knowledge article or file", List.of("article", "markdown",
            "html"), Set.of("urls"), List.of("kind", "content"));
    final ObjectNode webCreate = formOf(sourceCreate, "Web pages", List.of("url", "sitemap"), Set.of("content"),
            List.of("kind"));

    {
        ((ObjectNode) webCreate.get("properties").get("title")).put("description", "A web page's own <title> is "
                + "used when left empty; a list of addresses is called Pages (n)");
    }

    KnowledgeRoutes(KnowledgeService service) {
        this.service = service;
    }

    List<RouteSpec> routes() {
        return List.of(
                RouteSpec.get(BASE).scope(ChatbotScopes.READ).returns(progress)
                        .summary("How far the workspace's knowledge is indexed: sources by status, passages")
                        .handler(r -> ApiResponse.of(service.progress(r.tx()))),
                RouteSpec.get(BASE + "/sources").scope(ChatbotScopes.READ).paginated().returns(source)
                        .summary("The workspace's knowledge sources, with their indexing status")
                        .handler(r -> {
                            var l = service.list(r.tx(), r.pageRequest());
                            return ApiResponse.page(l.items(), l.page());
                        }),
                RouteSpec.post(BASE + "/sources").scope(ChatbotScopes.WRITE).body(sourceCreate).returns(source)
                        .summary("Add an article, import a Markdown or HTML file, a web page or a sitemap; it is "
                                + "fetched and indexed in the background")
                        .handler(r -> ApiResponse.of(service.create(r.tx(), r.body()))),
                RouteSpec.get(BASE + "/sources/{id}").scope(ChatbotScopes.READ).returns(source)
                        .summary("One knowledge source")
                        .handler(r -> ApiResponse.of(service.get(r.tx(), r.pathId("id")))),
                RouteSpec.patch(BASE + "/sources/{id}").scope(ChatbotScopes.WRITE).body(sourcePatch).returns(source)
                        .summary("Change a knowledge source; it is indexed again (unchanged passages keep their "
                                + "embeddings)")
                        .handler(r -> ApiResponse.of(service.update(r.tx(), r.pathId("id"), r.body()))),
                RouteSpec.post(BASE + "/sources/{id}/refresh").scope(ChatbotScopes.WRITE).status(202).returns(source)
                        .summary("Fetch a web page or sitemap again, in the background; an unchanged page keeps its "
                                + "passages and embeddings")
                        .handler(r -> ApiResponse.of(service.refresh(r.tx(), r.pathId("id")))),
                RouteSpec.post(BASE + "/sources/{id}/approve").scope(ChatbotScopes.WRITE).status(200).returns(source)
                        .summary("Approve a draft drawn from a resolved ticket: it is indexed and answered from")
                        .handler(r -> ApiResponse.of(service.approve(r.tx(), r.pathId("id")))),
                RouteSpec.delete(BASE + "/sources/{id}").scope(ChatbotScopes.WRITE).returns(deleted)
                        .summary("Delete a knowledge source and its passages")
                        .handler(r -> ApiResponse.of(service.delete(r.tx(), r.pathId("id")))),
                RouteSpec.post(BASE + "/search").scope(ChatbotScopes.READ).body(question).status(200).returns(found)
                        .summary("The passages the chat would answer a question from (none: nothing relevant)")
                        .handler(r -> ApiResponse.of(Map.of("passages",
                                service.ask(r.tx(), r.body())))));
    }

    /** The create schema for one form: only {@code kinds}, without {@code drop}, requiring {@code required}. */
    private static ObjectNode formOf(JsonNode create, String title, List<String> kinds, Set<String> drop,
            List<String> required) {
        ObjectNode form = create.deepCopy();
        form.put("title", title);
        ObjectNode props = (ObjectNode) form.get("properties");
        drop.forEach(props::remove);
        ObjectNode kind = (ObjectNode) props.get("kind");
        var labels = (ObjectNode) kind.get("x-enum-labels");
        var enumeration = kind.putArray("enum");
        kinds.forEach(enumeration::add);
        labels.retain(kinds);
        kind.put("default", kinds.get(0));
        var req = form.putArray("required");
        required.forEach(req::add);
        return form;
    }
}
