package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.outbound.OutboundGuard;
import dev.lnp.api.outbound.OutboundRefusal;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.PageRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/** Widgets and their articles for the management API (and the console). */
final class WidgetService {

    private final WidgetRepository repo;
    private final Supplier<String> baseUrl;
    private final Supplier<WidgetScript> script;

    private final Supplier<OutboundGuard> guard;

    /** @param guard checks a responder's {@code base_url}, a person's input the platform will call */
    WidgetService(WidgetRepository repo, Supplier<String> baseUrl, Supplier<WidgetScript> script,
            Supplier<OutboundGuard> guard) {
        this.repo = repo;
        this.baseUrl = baseUrl;
        this.script = script;
        this.guard = guard;
    }

    record Listing(List<Map<String, Object>> items, Page page) {
    }

    Listing list(WorkspaceTx tx, PageRequest page) {
        List<Map<String, Object>> items = new ArrayList<>();
        for (Widget w : repo.list(tx.handle(), tx.workspaceId(), page.limit(), page.offset())) {
            items.add(view(w, null));
        }
        return new Listing(items, Page.of(page, repo.count(tx.handle(), tx.workspaceId())));
    }

    Map<String, Object> get(WorkspaceTx tx, UUID id) {
        return view(widget(tx, id), null);
    }

    Map<String, Object> create(WorkspaceTx tx, JsonNode body) {
        String key = WidgetKeys.generate();
        Widget w = repo.insert(tx.handle(), tx.workspaceId(), fields(body, null), key, WidgetKeys.hash(key),
                WidgetKeys.displayPrefix(key), IdentityTokens.newSecret());
        return view(w, key);
    }

    Map<String, Object> update(WorkspaceTx tx, UUID id, JsonNode patch) {
        Widget current = widget(tx, id);
        Widget w = repo.update(tx.handle(), tx.workspaceId(), id, fields(patch, current))
                .orElseThrow(() -> ApiProblem.notFound("widget " + id));
        return view(w, null);
    }

    Map<String, Object> rotateKey(WorkspaceTx tx, UUID id) {
        String key = WidgetKeys.generate();
        Widget w = repo.rotateKey(tx.handle(), tx.workspaceId(), id, key, WidgetKeys.hash(key),
                WidgetKeys.displayPrefix(key))
                .orElseThrow(() -> ApiProblem.notFound("widget " + id));
        return view(w, key);
    }

    /**
     * The widget's identity secret (docs/chatbot.md, "Known visitors"), made now for a widget that predates secrets;
     * with what a site needs to sign its visitors' tokens.
     */
    Map<String, Object> identitySecret(WorkspaceTx tx, UUID id) {
        Widget w = widget(tx, id);
        if (w.identitySecret().isEmpty()) {
            w = repo.setIdentitySecret(tx.handle(), tx.workspaceId(), id, IdentityTokens.newSecret(), true)
                    .orElseThrow(() -> ApiProblem.notFound("widget " + id));
        }
        return secretView(w);
    }

    /** A new identity secret: tokens signed with the old one are refused from now on. */
    Map<String, Object> rotateIdentitySecret(WorkspaceTx tx, UUID id) {
        Widget w = repo.setIdentitySecret(tx.handle(), tx.workspaceId(), id, IdentityTokens.newSecret(), false)
                .orElseThrow(() -> ApiProblem.notFound("widget " + id));
        return secretView(w);
    }

    private static Map<String, Object> secretView(Widget w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("widget_id", w.id());
        m.put("identity_secret", w.identitySecret().orElseThrow());
        m.put("audience", w.id().toString());
        m.put("algorithm", "HS256");
        m.put("max_lifetime_seconds", IdentityTokens.MAX_LIFETIME.toSeconds());
        return m;
    }

    Map<String, Object> delete(WorkspaceTx tx, UUID id) {
        if (!repo.delete(tx.handle(), tx.workspaceId(), id)) {
            throw ApiProblem.notFound("widget " + id);
        }
        return Map.of("id", id, "deleted", true);
    }

    Widget widget(WorkspaceTx tx, UUID id) {
        return repo.find(tx.handle(), tx.workspaceId(), id).orElseThrow(() -> ApiProblem.notFound("widget " + id));
    }

    // Articles.

    Listing articles(WorkspaceTx tx, UUID widgetId, PageRequest page) {
        widget(tx, widgetId);
        return new Listing(repo.listArticles(tx.handle(), tx.workspaceId(), widgetId, page.limit(), page.offset()),
                Page.of(page, repo.countArticles(tx.handle(), tx.workspaceId(), widgetId)));
    }

    Map<String, Object> article(WorkspaceTx tx, UUID widgetId, UUID id) {
        return repo.findArticle(tx.handle(), tx.workspaceId(), widgetId, id)
                .orElseThrow(() -> ApiProblem.notFound("article " + id + " of widget " + widgetId));
    }

    Map<String, Object> createArticle(WorkspaceTx tx, UUID widgetId, JsonNode body) {
        Widget w = widget(tx, widgetId);
        return repo.insertArticle(tx.handle(), tx.workspaceId(), widgetId, body.get("title").asText(),
                body.get("body").asText(), text(body, "url", null), text(body, "language", w.language()));
    }

    Map<String, Object> updateArticle(WorkspaceTx tx, UUID widgetId, UUID id, JsonNode patch) {
        Map<String, Object> current = article(tx, widgetId, id);
        return repo.updateArticle(tx.handle(), tx.workspaceId(), widgetId, id,
                text(patch, "title", (String) current.get("title")), text(patch, "body", (String) current.get("body")),
                patch.has("url") ? (patch.get("url").isNull() ? null : patch.get("url").asText())
                        : (String) current.get("url"),
                text(patch, "language", (String) current.get("language")))
                .orElseThrow(() -> ApiProblem.notFound("article " + id + " of widget " + widgetId));
    }

    Map<String, Object> deleteArticle(WorkspaceTx tx, UUID widgetId, UUID id) {
        if (!repo.deleteArticle(tx.handle(), tx.workspaceId(), widgetId, id)) {
            throw ApiProblem.notFound("article " + id + " of widget " + widgetId);
        }
        return Map.of("id", id, "deleted", true);
    }

    /** The columns from a create body, or a PATCH body merged over {@code current}. */
    private Map<String, Object> fields(JsonNode body, Widget current) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("name", text(body, "name", current == null ? null : current.name()));
        List<String> origins = new ArrayList<>();
        if (body.has("allowed_origins")) {
            int i = 0;
            for (JsonNode o : body.get("allowed_origins")) {
                String normalized = Origins.normalize(o.asText());
                if (normalized == null) {
                    throw ApiProblem.invalidField("/allowed_origins/" + i, "origin",
                            "must be exactly scheme://host[:port], without path or wildcard");
                }
                if (!origins.contains(normalized)) {
                    origins.add(normalized);
                }
                i++;
            }
        } else {
            origins.addAll(current.allowedOrigins());
        }
        f.put("origins", String.join("\n", origins));
        f.put("greeting", text(body, "greeting", current == null ? "" : current.greeting()));
        JsonNode theme = body.path("theme");
        f.put("accent", theme.has("accent_color") ? theme.get("accent_color").asText().toLowerCase(java.util.Locale.ROOT)
                : current == null ? "#1f6feb" : current.accentColor());
        f.put("position", theme.has("position") ? theme.get("position").asText()
                : current == null ? "right" : current.position());
        f.put("streaming", body.has("streaming") ? body.get("streaming").asBoolean()
                : current == null || current.streaming());
        f.put("handoff", body.has("human_handoff") ? body.get("human_handoff").asBoolean()
                : current == null || current.humanHandoff());
        f.put("responder", text(body, "responder", current == null ? "knowledge" : current.responder()));
        f.put("language", text(body, "language", current == null ? "en" : current.language()));
        f.put("require_verified", body.has("require_verified_identity")
                ? body.get("require_verified_identity").asBoolean() : current != null && current.requireVerifiedIdentity());
        ObjectNode settings = current == null ? Json.object() : ((ObjectNode) current.settings()).deepCopy();
        if (body.has("responder_settings")) {
            checkBaseUrl(body.get("responder_settings").get("base_url"));
            body.get("responder_settings").fields().forEachRemaining(e -> {
                if (e.getValue().isNull()) {
                    settings.remove(e.getKey());
                } else {
                    settings.set(e.getKey(), e.getValue());
                }
            });
        }
        f.put("settings", settings.toString());
        // Checked here (zone, times, overlaps) so the API, MCP and the console refuse the same things in words.
        Optional<OfficeHours> hours = body.has("office_hours") ? OfficeHours.parse(body.get("office_hours"))
                : current == null ? Optional.empty() : current.officeHours();
        f.put("office_hours", hours.map(h -> h.toJson().toString()).orElse(null));
        return f;
    }

    /**
     * Refuses a model server's base URL the platform must not call (an internal address, another scheme) when it is
     * saved, naming the field; the calls are checked again.
     */
    private void checkBaseUrl(JsonNode baseUrl) {
        if (baseUrl == null || baseUrl.isNull()) {
            return;
        }
        try {
            guard.get().check(baseUrl.asText());
        } catch (OutboundRefusal refused) {
            throw ApiProblem.invalidField("/responder_settings/base_url", refused.rule(), refused.getMessage());
        }
    }

    private static String text(JsonNode body, String field, String fallback) {
        JsonNode v = body.get(field);
        return v == null || v.isNull() ? fallback : v.asText();
    }

    /** The widget as the API shows it: never the key's hash or the responder's api_key; the key only when new. */
    Map<String, Object> view(Widget w, String newKey) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", w.id());
        m.put("name", w.name());
        m.put("allowed_origins", w.allowedOrigins());
        m.put("greeting", w.greeting());
        m.put("theme", Map.of("accent_color", w.accentColor(), "position", w.position()));
        m.put("streaming", w.streaming());
        m.put("human_handoff", w.humanHandoff());
        m.put("require_verified_identity", w.requireVerifiedIdentity());
        m.put("responder", w.responder());
        m.put("language", w.language());
        ObjectNode settings = ((ObjectNode) w.settings()).deepCopy();
        boolean hasKey = settings.has("api_key");
        settings.remove("api_key");
        settings.put("has_api_key", hasKey);
        m.put("responder_settings", settings);
        m.put("office_hours", w.officeHours().map(OfficeHours::toJson).orElse(null));
        m.put("key_prefix", w.keyPrefix());
        if (newKey != null) {
            m.put("key", newKey);
        }
        WidgetScript s = script.get();
        m.put("script_integrity", s == null ? null : s.integrity());
        // The key is public by design (it is in every page with the widget): the whole snippet is shown whenever the
        // widget is, once the key was made after keys were kept (else its prefix, until the key is rotated).
        String key = newKey != null ? newKey : w.publicKey().orElse(null);
        m.put("embed_snippet", snippet(key == null ? w.keyPrefix() + "…" : key, s));
        m.put("created_at", w.createdAt());
        m.put("updated_at", w.updatedAt());
        return m;
    }

    private String snippet(String key, WidgetScript s) {
        String src = baseUrl.get() + "/api/cxo/widget.js" + (s == null ? "" : "?v=" + s.version());
        return "<script src=\"" + src + "\" data-key=\"" + key + "\""
                + (s == null ? "" : " integrity=\"" + s.integrity() + "\" crossorigin=\"anonymous\"") + " async></script>";
    }
}
