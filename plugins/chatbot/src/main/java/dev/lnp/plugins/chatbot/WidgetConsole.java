package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.console.ActionResult;
import dev.lnp.api.console.ConsoleColumn;
import dev.lnp.api.console.ConsoleRole;
import dev.lnp.api.console.ConsoleSection;
import dev.lnp.api.console.RowAction;
import dev.lnp.api.console.RowPage;
import dev.lnp.api.console.SectionContext;
import dev.lnp.api.http.ApiProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The console's "Chat widgets" section (list, detail, create, edit, rotate key, delete) and its "Knowledge articles"
 * child section, over the same {@link WidgetService} as the management API.
 */
final class WidgetConsole {

    private final WidgetService service;
    private final WidgetRoutes routes;
    private final JsonNode widgetForm;

    WidgetConsole(WidgetService service, WidgetRoutes routes) {
        this.service = service;
        this.routes = routes;
        this.widgetForm = consoleForm(routes.widgetCreate);
    }

    /**
     * The console's form of a widget, derived from the API's {@code widget-create.json} (so a field's rules are
     * written once): a form has no nested objects, so the theme's fields take its place, and the responder's
     * server settings (with their write-only key) are left to the API.
     */
    static ObjectNode consoleForm(JsonNode widgetCreate) {
        ObjectNode form = widgetCreate.deepCopy();
        form.put("title", "Chat widget");
        ObjectNode properties = Json.object();
        widgetCreate.path("properties").fields().forEachRemaining(field -> {
            switch (field.getKey()) {
                case "theme" -> field.getValue().path("properties").fields()
                        .forEachRemaining(themeField -> properties.set(themeField.getKey(), themeField.getValue()));
                case "responder_settings" -> { }
                default -> properties.set(field.getKey(), field.getValue());
            }
        });
        form.set("properties", properties);
        return form;
    }

    List<ConsoleSection> sections() {
        ConsoleSection widgets = ConsoleSection.builder("widgets", "Chat widgets")
                .group("Chatbot").itemName("widget")
                .description("Chat widgets for your web pages: where they may be embedded, what they say, and the "
                        + "key the page uses (a widget key works only for chatting).")
                .minRole(ConsoleRole.ADMIN)
                .columns(ConsoleColumn.linked("Name", "name"), ConsoleColumn.of("Allowed origins", "origins"),
                        ConsoleColumn.of("Responder", "responder"), ConsoleColumn.of("Key", "key_prefix"))
                .detailFields(ConsoleColumn.of("Name", "name"), ConsoleColumn.of("Allowed origins", "origins"),
                        ConsoleColumn.of("Greeting", "greeting"), ConsoleColumn.of("Responder", "responder"),
                        ConsoleColumn.of("Language", "language"), ConsoleColumn.of("Streaming", "streaming"),
                        ConsoleColumn.of("Hand-off to a person", "human_handoff"),
                        ConsoleColumn.of("Accent colour", "accent_color"), ConsoleColumn.of("Position", "position"),
                        ConsoleColumn.of("Key", "key_prefix"), ConsoleColumn.of("Script integrity", "script_integrity"),
                        ConsoleColumn.of("Embed snippet", "embed_snippet"), ConsoleColumn.of("Created", "created_at"))
                .emptyText("No chat widgets yet. Create one, then put its snippet in your pages.")
                .list(this::list)
                .detail(this::find)
                .create(widgetForm, this::create)
                .edit(JsonSchemas.patchOf(widgetForm, "Chat widget update", Set.of("name", "allowed_origins")),
                        this::update)
                .actions(RowAction.builder("rotate-key", "Rotate key")
                                .confirm("The widget gets a new key; pages still using the current key stop chatting "
                                        + "at once.")
                                .handler((ctx, id) -> {
                                    var rotated = service.rotateKey(ctx.tx(), uuid(id));
                                    return ActionResult.secret(id, "New widget key", (String) rotated.get("key"),
                                            "Shown once. Put it in your pages: " + rotated.get("embed_snippet"));
                                }),
                        RowAction.builder("delete", "Delete").dangerous()
                                .confirm("The widget, its key, its articles and its conversations are deleted.")
                                .handler((ctx, id) -> {
                                    service.delete(ctx.tx(), uuid(id));
                                    return ActionResult.removed();
                                }))
                .build();
        ConsoleSection articles = ConsoleSection.builder("articles", "Knowledge articles").childOf("widgets")
                .group("Chatbot").itemName("article")
                .description("What the knowledge responder answers from: full-text search in the visitor's language, "
                        + "citing the article.")
                .minRole(ConsoleRole.ADMIN)
                .columns(ConsoleColumn.linked("Title", "title"), ConsoleColumn.of("Language", "language"),
                        ConsoleColumn.of("URL", "url"))
                .detailFields(ConsoleColumn.of("Title", "title"), ConsoleColumn.of("Language", "language"),
                        ConsoleColumn.of("URL", "url"), ConsoleColumn.of("Text", "body"))
                .emptyText("No articles yet.")
                .list(ctx -> {
                    var l = service.articles(ctx.tx(), parent(ctx), ctx.page());
                    return new RowPage(l.items().stream().map(WidgetConsole::row).toList(), l.page().total());
                })
                .detail((ctx, id) -> Optional.of(row(service.article(ctx.tx(), parent(ctx), uuid(id)))))
                .create(routes.articleCreate, (ctx, values) -> ActionResult.showRow(String.valueOf(
                        service.createArticle(ctx.tx(), parent(ctx), values).get("id"))))
                .edit(routes.articlePatch, (ctx, id, values) -> {
                    service.updateArticle(ctx.tx(), parent(ctx), uuid(id), values);
                    return ActionResult.done();
                })
                .actions(RowAction.builder("delete", "Delete").dangerous().confirm("The article is deleted.")
                        .handler((ctx, id) -> {
                            service.deleteArticle(ctx.tx(), parent(ctx), uuid(id));
                            return ActionResult.removed();
                        }))
                .build();
        return List.of(widgets, articles);
    }

    private RowPage list(SectionContext ctx) {
        var l = service.list(ctx.tx(), ctx.page());
        List<ObjectNode> rows = new ArrayList<>();
        for (var w : l.items()) {
            rows.add(widgetRow(w));
        }
        return new RowPage(rows, l.page().total());
    }

    private Optional<ObjectNode> find(SectionContext ctx, String id) {
        UUID uuid = uuidOrNull(id);
        if (uuid == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(widgetRow(service.get(ctx.tx(), uuid)));
        } catch (ApiProblem e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private ActionResult create(SectionContext ctx, ObjectNode values) {
        var created = service.create(ctx.tx(), apiBody(values));
        return ActionResult.secret(String.valueOf(created.get("id")), "Widget key", (String) created.get("key"),
                "Shown once. Put it in your pages: " + created.get("embed_snippet"));
    }

    private ActionResult update(SectionContext ctx, String id, ObjectNode values) {
        service.update(ctx.tx(), uuid(id), apiBody(values));
        return ActionResult.done();
    }

    /** The console's flat form as the API's body (theme as an object). */
    private static ObjectNode apiBody(ObjectNode values) {
        ObjectNode body = values.deepCopy();
        ObjectNode theme = Json.object();
        if (body.has("accent_color")) {
            theme.set("accent_color", body.remove("accent_color"));
        }
        if (body.has("position")) {
            theme.set("position", body.remove("position"));
        }
        if (!theme.isEmpty()) {
            body.set("theme", theme);
        }
        return body;
    }

    @SuppressWarnings("unchecked")
    private static ObjectNode widgetRow(Map<String, Object> w) {
        ObjectNode row = row(w);
        JsonNode theme = row.remove("theme");
        row.put("accent_color", theme.path("accent_color").asText());
        row.put("position", theme.path("position").asText());
        row.put("origins", String.join(", ", (List<String>) w.get("allowed_origins")));
        row.remove("responder_settings");
        return row;
    }

    private static ObjectNode row(Map<String, Object> values) {
        return (ObjectNode) Json.mapper().valueToTree(values);
    }

    private static UUID parent(SectionContext ctx) {
        return ctx.parentId().map(WidgetConsole::uuidOrNull)
                .orElseThrow(() -> ApiProblem.notFound("widget"));
    }

    private static UUID uuid(String id) {
        UUID uuid = uuidOrNull(id);
        if (uuid == null) {
            throw ApiProblem.notFound("widget " + id);
        }
        return uuid;
    }

    private static UUID uuidOrNull(String id) {
        try {
            return id == null ? null : UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
