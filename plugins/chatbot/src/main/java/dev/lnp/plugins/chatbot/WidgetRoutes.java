package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.RouteSpec;
import java.util.List;
import java.util.Set;

/** The management API of widgets and their articles, under {@code /api/v1/chatbot/widgets}. */
final class WidgetRoutes {

    private static final String WIDGETS = "/api/v1/chatbot/widgets";

    private final WidgetService service;
    final JsonNode widgetCreate = JsonSchemas.load(WidgetRoutes.class, "widget-create.json");
    final ObjectNode widgetPatch = JsonSchemas.patchOf(widgetCreate, "Widget update",
            Set.of("name", "allowed_origins", "streaming", "human_handoff", "responder", "language",
                    "require_verified_identity"));
    final JsonNode articleCreate = JsonSchemas.load(WidgetRoutes.class, "article-create.json");
    final ObjectNode articlePatch = JsonSchemas.patchOf(articleCreate, "Article update",
            Set.of("title", "body", "language"));
    /** What the routes answer: a widget, an article, a widget's identity secret, a deletion. */
    final JsonNode widget = JsonSchemas.load(WidgetRoutes.class, "widget.json");
    final JsonNode article = JsonSchemas.load(WidgetRoutes.class, "article.json");
    final JsonNode identitySecret = JsonSchemas.load(WidgetRoutes.class, "widget-identity-secret.json");
    final JsonNode deleted = JsonSchemas.deleted();

    WidgetRoutes(WidgetService service) {
        this.service = service;
    }

    List<RouteSpec> routes() {
        return List.of(
                RouteSpec.get(WIDGETS).scope(ChatbotScopes.READ).paginated().returns(widget)
                        .summary("List the workspace's chat widgets")
                        .handler(r -> {
                            var l = service.list(r.tx(), r.pageRequest());
                            return ApiResponse.page(l.items(), l.page());
                        }),
                RouteSpec.post(WIDGETS).scope(ChatbotScopes.WRITE).body(widgetCreate).returns(widget)
                        .summary("Create a chat widget; the answer shows its key once")
                        .handler(r -> ApiResponse.of(service.create(r.tx(), r.body()))),
                RouteSpec.get(WIDGETS + "/{id}").scope(ChatbotScopes.READ).returns(widget).summary("One chat widget")
                        .handler(r -> ApiResponse.of(service.get(r.tx(), r.pathId("id")))),
                RouteSpec.patch(WIDGETS + "/{id}").scope(ChatbotScopes.WRITE).body(widgetPatch).returns(widget)
                        .summary("Change a chat widget")
                        .handler(r -> ApiResponse.of(service.update(r.tx(), r.pathId("id"), r.body()))),
                RouteSpec.delete(WIDGETS + "/{id}").scope(ChatbotScopes.WRITE).returns(deleted)
                        .summary("Delete a chat widget, its key, articles and conversations")
                        .handler(r -> ApiResponse.of(service.delete(r.tx(), r.pathId("id")))),
                RouteSpec.post(WIDGETS + "/{id}/rotate-key").scope(ChatbotScopes.WRITE).status(200).returns(widget)
                        .summary("Give a widget a new key (shown once); the old key stops at once")
                        .handler(r -> ApiResponse.of(service.rotateKey(r.tx(), r.pathId("id")))),
                RouteSpec.get(WIDGETS + "/{id}/identity-secret").scope(ChatbotScopes.WRITE).returns(identitySecret)
                        .summary("The secret a site signs its visitors' identity tokens with (HS256); made on first read")
                        .handler(r -> ApiResponse.of(service.identitySecret(r.tx(), r.pathId("id")))),
                RouteSpec.post(WIDGETS + "/{id}/rotate-identity-secret").scope(ChatbotScopes.WRITE).status(200)
                        .returns(identitySecret)
                        .summary("Give a widget a new identity secret; tokens signed with the old one are refused at once")
                        .handler(r -> ApiResponse.of(service.rotateIdentitySecret(r.tx(), r.pathId("id")))),
                RouteSpec.get(WIDGETS + "/{id}/articles").scope(ChatbotScopes.READ).paginated().returns(article)
                        .summary("The knowledge articles of a widget")
                        .handler(r -> {
                            var l = service.articles(r.tx(), r.pathId("id"), r.pageRequest());
                            return ApiResponse.page(l.items(), l.page());
                        }),
                RouteSpec.post(WIDGETS + "/{id}/articles").scope(ChatbotScopes.WRITE).body(articleCreate)
                        .returns(article)
                        .summary("Add a knowledge article to a widget")
                        .handler(r -> ApiResponse.of(service.createArticle(r.tx(), r.pathId("id"), r.body()))),
                RouteSpec.get(WIDGETS + "/{id}/articles/{article_id}").scope(ChatbotScopes.READ).returns(article)
                        .summary("One knowledge article")
                        .handler(r -> ApiResponse.of(service.article(r.tx(), r.pathId("id"), r.pathId("article_id")))),
                RouteSpec.patch(WIDGETS + "/{id}/articles/{article_id}").scope(ChatbotScopes.WRITE).body(articlePatch)
                        .returns(article)
                        .summary("Change a knowledge article")
                        .handler(r -> ApiResponse.of(service.updateArticle(r.tx(), r.pathId("id"),
                                r.pathId("article_id"), r.body()))),
                RouteSpec.delete(WIDGETS + "/{id}/articles/{article_id}").scope(ChatbotScopes.WRITE).returns(deleted)
                        .summary("Delete a knowledge article")
                        .handler(r -> ApiResponse.of(service.deleteArticle(r.tx(), r.pathId("id"),
                                r.pathId("article_id")))));
    }
}
