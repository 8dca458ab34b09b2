package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.EnumLabels;
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
import java.util.Set;
import java.util.UUID;

/**
 * The administration's "Chat widgets" pages (list, widget, create, edit, rotate key, delete) and each widget's
 * knowledge articles, over the same {@link WidgetService} as the management API and checked against its schemas.
 * Paths in matching order: {@code …/new} before {@code …/{id}}.
 */
final class WidgetPages {

    static final String WIDGETS = "/console/chatbot/widgets";
    private static final String WIDGET = WIDGETS + "/{id}";
    private static final String ARTICLES = WIDGET + "/articles";
    private static final String ARTICLE = ARTICLES + "/{article_id}";
    private static final String READ = ChatbotScopes.READ;
    private static final String WRITE = ChatbotScopes.WRITE;

    private final WidgetService service;
    private final WidgetRoutes routes;
    private final ObjectNode widgetForm;
    private final ObjectNode widgetEdit;

    WidgetPages(WidgetService service, WidgetRoutes routes) {
        this.service = service;
        this.routes = routes;
        this.widgetForm = pageForm(routes.widgetCreate);
        this.widgetEdit = JsonSchemas.patchOf(widgetForm, "Chat widget update", Set.of("name", "allowed_origins"));
    }

    /**
     * The pages' form of a widget, derived from the API's {@code widget-create.json} (so a field's rules are
     * written once): a form has no nested objects, so the theme's fields take its place, and the responder's
     * server settings (with their write-only key) are left to the API.
     */
    static ObjectNode pageForm(JsonNode widgetCreate) {
        ObjectNode form = widgetCreate.deepCopy();
        form.put("title", "Chat widget");
        ObjectNode properties = Json.object();
        widgetCreate.path("properties").fields().forEachRemaining(field -> {
            switch (field.getKey()) {
                case "theme" -> field.getValue().path("properties").fields()
                        .forEachRemaining(themeField -> properties.set(themeField.getKey(), themeField.getValue()));
                case "office_hours" -> field.getValue().path("properties").fields()
                        .forEachRemaining(hours -> properties.set(hours.getKey(), hours.getValue()));
                case "responder_settings" -> { }
                default -> properties.set(field.getKey(), field.getValue());
            }
        });
        form.set("properties", properties);
        return form;
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(WIDGETS).scope(READ).nav("Chatbot", "Chat widgets").renderer(this::list),
                PageRoute.view(WIDGETS + "/new").scope(WRITE)
                        .renderer(call -> new FormView("New widget", widgetForm, Json.object(), "Create widget", WIDGETS)),
                PageRoute.action(WIDGETS + "/new").scope(WRITE).form(widgetForm).action(this::create),
                PageRoute.view(WIDGET).scope(READ).renderer(this::widget),
                PageRoute.view(WIDGET + "/edit").scope(WRITE).renderer(call -> {
                    ObjectNode row = widgetRow(service.get(call.tx(), call.pathId("id")));
                    return new FormView("Edit " + row.path("name").asText(), widgetEdit, row, "Save",
                            WIDGETS + "/" + call.pathId("id"));
                }),
                PageRoute.action(WIDGET + "/edit").scope(WRITE).form(widgetEdit).action((call, values) -> {
                    UUID id = call.pathId("id");
                    formFields(() -> service.update(call.tx(), id, apiBody(values)));
                    return PageOutcome.goTo(WIDGETS + "/" + id, "The widget was saved.");
                }),
                PageRoute.action(WIDGET + "/rotate-key").scope(WRITE).button().action((call, values) -> {
                    UUID id = call.pathId("id");
                    var rotated = service.rotateKey(call.tx(), id);
                    return PageOutcome.goTo(WIDGETS + "/" + id, "The widget has a new key: put the new snippet in "
                            + "your pages. Pages still using the old key stopped chatting.")
                            .showingOnce("Embed snippet with the new widget key", (String) rotated.get("embed_snippet"), null);
                }),
                PageRoute.action(WIDGET + "/rotate-identity-secret").scope(WRITE).button().action((call, values) -> {
                    UUID id = call.pathId("id");
                    service.rotateIdentitySecret(call.tx(), id);
                    return PageOutcome.goTo(WIDGETS + "/" + id, "The widget has a new identity secret: sign your "
                            + "visitors' tokens with it. Tokens signed with the old one are refused.");
                }),
                PageRoute.action(WIDGET + "/delete").scope(WRITE).button().action((call, values) -> {
                    service.delete(call.tx(), call.pathId("id"));
                    return PageOutcome.goTo(WIDGETS, "The widget was deleted.");
                }),
                PageRoute.view(ARTICLES).scope(READ).renderer(this::articles),
                PageRoute.view(ARTICLES + "/new").scope(WRITE).renderer(call -> {
                    String widget = widgetName(call);
                    return new FormView("New article for " + widget, routes.articleCreate, Json.object(),
                            "Create article", articlesOf(call));
                }),
                PageRoute.action(ARTICLES + "/new").scope(WRITE).form(routes.articleCreate).action((call, values) -> {
                    var created = service.createArticle(call.tx(), call.pathId("id"), values);
                    return PageOutcome.goTo(articlesOf(call) + "/" + created.get("id"), "The article was created.");
                }),
                PageRoute.view(ARTICLE).scope(READ).renderer(this::article),
                PageRoute.view(ARTICLE + "/edit").scope(WRITE).renderer(call -> {
                    ObjectNode row = row(service.article(call.tx(), call.pathId("id"), call.pathId("article_id")));
                    return new FormView("Edit " + row.path("title").asText(), routes.articlePatch, row, "Save",
                            articlesOf(call) + "/" + call.pathId("article_id"));
                }),
                PageRoute.action(ARTICLE + "/edit").scope(WRITE).form(routes.articlePatch).action((call, values) -> {
                    service.updateArticle(call.tx(), call.pathId("id"), call.pathId("article_id"), values);
                    return PageOutcome.goTo(articlesOf(call) + "/" + call.pathId("article_id"), "The article was saved.");
                }),
                PageRoute.action(ARTICLE + "/delete").scope(WRITE).button().action((call, values) -> {
                    service.deleteArticle(call.tx(), call.pathId("id"), call.pathId("article_id"));
                    return PageOutcome.goTo(articlesOf(call), "The article was deleted.");
                }));
    }

    private ListView list(PageCall call) {
        var page = service.list(call.tx(), call.page());
        List<ObjectNode> rows = page.items().stream().map(WidgetPages::widgetRow).toList();
        ListView list = ListView.of("Chat widgets", List.of(
                                Column.of("Name", "name").linkedTo(WIDGETS + "/{id}"),
                                Column.of("Allowed origins", "origins"), Column.of("Responder", "responder"),
                                Column.of("Key", "key_prefix")),
                        rows, page.page().hasMore())
                .emptyText("No chat widgets yet. Create one, then put its snippet in your pages.");
        return call.may(WRITE) ? list.actions(Link.to("New widget", WIDGETS + "/new")) : list;
    }

    private DetailView widget(PageCall call) {
        UUID id = call.pathId("id");
        ObjectNode w = widgetRow(service.get(call.tx(), id));
        w.put("position", EnumLabels.of(widgetForm, "position", w.path("position").asText()));
        DetailView view = DetailView.of(w.path("name").asText(), fields(w, List.of(
                "Name", "name", "Allowed origins", "origins", "Greeting", "greeting", "Responder", "responder",
                "Language", "language", "Streaming", "streaming", "Hand-off to a person", "human_handoff",
                "Accent colour", "accent_color", "Position", "position", "Key", "key_prefix",
                "Script integrity", "script_integrity", "Embed snippet", "embed_snippet", "Created", "created_at")));
        List<Field> more = new ArrayList<>(List.of(new Field("Office hours", officeHours(w)),
                new Field("Only signed-in visitors", w.path("require_verified_identity").asBoolean() ? "yes" : "no")));
        if (call.may(WRITE)) {
            // Known visitors: what the site's server signs its visitors' identity tokens with (docs/chatbot.md).
            more.add(new Field("Identity secret (HS256)", service.widget(call.tx(), id)
                    .identitySecret().orElse("none yet: choose Rotate identity secret to make one")));
            more.add(new Field("Identity token audience (aud)", id.toString()));
        }
        view = DetailView.of(view.title(), java.util.stream.Stream.concat(view.fields().stream(), more.stream())
                .toList());
        String self = WIDGETS + "/" + id;
        List<Link> links = new ArrayList<>(List.of(Link.to("Knowledge articles", self + "/articles")));
        if (call.may(WRITE)) {
            links.add(Link.to("Edit widget", self + "/edit"));
            links.add(Link.post("Rotate key", self + "/rotate-key", "The widget gets a new key; pages still using "
                    + "the current key stop chatting at once."));
            links.add(Link.post("Rotate identity secret", self + "/rotate-identity-secret", "The widget gets a new "
                    + "identity secret; identity tokens signed with the current one are refused at once."));
            links.add(Link.post("Delete", self + "/delete",
                    "The widget, its key, its articles and its conversations are deleted."));
        }
        return view.actions(links.toArray(Link[]::new));
    }

    private ListView articles(PageCall call) {
        UUID widget = call.pathId("id");
        String name = widgetName(call);
        var page = service.articles(call.tx(), widget, call.page());
        String base = articlesOf(call);
        ListView list = ListView.of("Knowledge articles of " + name, List.of(
                                Column.of("Title", "title").linkedTo(base + "/{id}"), Column.of("Language", "language"),
                                Column.of("URL", "url")),
                        page.items().stream().map(WidgetPages::row).toList(), page.page().hasMore())
                .emptyText("No articles yet. The knowledge responder answers from them: full-text search in the "
                        + "visitor's language, citing the article.");
        List<Link> links = new ArrayList<>(List.of(Link.to("Back to " + name, WIDGETS + "/" + widget)));
        if (call.may(WRITE)) {
            links.add(Link.to("New article", base + "/new"));
        }
        return list.actions(links.toArray(Link[]::new));
    }

    private DetailView article(PageCall call) {
        ObjectNode a = row(service.article(call.tx(), call.pathId("id"), call.pathId("article_id")));
        String self = articlesOf(call) + "/" + call.pathId("article_id");
        DetailView view = DetailView.of(a.path("title").asText(), fields(a, List.of(
                "Title", "title", "Language", "language", "URL", "url", "Text", "body")));
        List<Link> links = new ArrayList<>(List.of(Link.to("All articles", articlesOf(call))));
        if (call.may(WRITE)) {
            links.add(Link.to("Edit article", self + "/edit"));
            links.add(Link.post("Delete", self + "/delete", "The article is deleted."));
        }
        return view.actions(links.toArray(Link[]::new));
    }

    private String widgetName(PageCall call) {
        return service.widget(call.tx(), call.pathId("id")).name();
    }

    private static String articlesOf(PageCall call) {
        return WIDGETS + "/" + call.pathId("id") + "/articles";
    }

    /** "Monday 09:00-17:00, Tuesday 09:00-12:00 (Europe/Berlin)", or "at any time" without office hours. */
    static String officeHours(ObjectNode row) {
        String zone = row.path("time_zone").asText("");
        if (zone.isBlank()) return "at any time";
        List<String> days = new ArrayList<>();
        for (String day : OfficeHours.DAYS) {
            String hours = row.path(day).asText("");
            if (!hours.isBlank()) days.add(Character.toUpperCase(day.charAt(0)) + day.substring(1) + " " + hours);
        }
        return (days.isEmpty() ? "closed every day" : String.join(", ", days)) + " (" + zone + ")";
    }

    /** Labels and fields, in pairs, as the detail's fields: the values as the lists show them. */
    private static List<Field> fields(ObjectNode row, List<String> labelsAndFields) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < labelsAndFields.size(); i += 2) {
            JsonNode value = row.path(labelsAndFields.get(i + 1));
            String text = value.isMissingNode() || value.isNull() ? null
                    : value.isBoolean() ? (value.asBoolean() ? "yes" : "no") : value.asText();
            // The embed snippet is shown whole, with a Copy button.
            fields.add(labelsAndFields.get(i + 1).equals("embed_snippet")
                    ? Field.copyable(labelsAndFields.get(i), text) : new Field(labelsAndFields.get(i), text));
        }
        return fields;
    }

    /** The pages' flat form as the API's body (theme as an object). */
    private static final List<String> OFFICE_HOURS_FIELDS = java.util.stream.Stream.concat(
            java.util.stream.Stream.of("time_zone"), OfficeHours.DAYS.stream()).toList();

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
        // A form without a time zone means no office hours: the chat is attended at any time.
        ObjectNode hours = Json.object();
        for (String field : OFFICE_HOURS_FIELDS) {
            if (body.has(field)) {
                hours.set(field, body.remove(field));
            }
        }
        if (!hours.isEmpty()) {
            body.set("office_hours", hours.path("time_zone").asText("").isBlank() ? Json.mapper().nullNode() : hours);
        }
        return body;
    }

    /**
     * The form has the office hours' fields at its top level: a refusal naming {@code /office_hours/monday} is shown
     * next to the form's {@code monday} field.
     */
    private static <T> T formFields(java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (dev.lnp.api.http.ApiProblem p) {
            if (p.errors().stream().noneMatch(e -> e.pointer().startsWith("/office_hours/"))) {
                throw p;
            }
            throw dev.lnp.api.http.ApiProblem.invalid(p.getMessage(), p.errors().stream()
                    .map(e -> new dev.lnp.api.http.FieldError(e.pointer().replaceFirst("^/office_hours/", "/"),
                            e.rule(), e.message())).toList());
        }
    }

    private PageOutcome create(PageCall call, ObjectNode values) {
        var created = formFields(() -> service.create(call.tx(), apiBody(values)));
        // The snippet carries the new key (data-key): what a person puts in their pages, ready to paste.
        return PageOutcome.goTo(WIDGETS + "/" + created.get("id"), "The widget was created. Put its embed snippet "
                        + "in your pages.")
                .showingOnce("Embed snippet with the widget key", (String) created.get("embed_snippet"), null);
    }

    @SuppressWarnings("unchecked")
    private static ObjectNode widgetRow(Map<String, Object> w) {
        ObjectNode row = row(w);
        JsonNode theme = row.remove("theme");
        row.put("accent_color", theme.path("accent_color").asText());
        row.put("position", theme.path("position").asText());
        row.put("origins", String.join(", ", (List<String>) w.get("allowed_origins")));
        row.remove("responder_settings");
        JsonNode hours = row.remove("office_hours");
        if (hours != null && hours.isObject()) {
            hours.fields().forEachRemaining(e -> row.set(e.getKey(), e.getValue()));
        }
        return row;
    }

    private static ObjectNode row(Map<String, Object> values) {
        return (ObjectNode) Json.mapper().valueToTree(values);
    }
}
