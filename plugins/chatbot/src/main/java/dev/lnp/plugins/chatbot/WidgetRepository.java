package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** All SQL of widgets and articles. */
final class WidgetRepository {

    private static final String WIDGET_COLUMNS = "id, workspace_id, name, allowed_origins, greeting, accent_color, "
            + "position, streaming, human_handoff, responder, language, responder_settings::text AS settings, "
            + "office_hours::text AS office_hours, key_prefix, public_key, created_at, updated_at, identity_secret, "
            + "require_verified_identity";

    record KeyOwner(UUID workspaceId, UUID widgetId) {
    }

    /** Across workspaces (platform user): whose widget a key is. */
    Optional<KeyOwner> ownerOfKey(Handle h, byte[] keyHash) {
        return h.createQuery("SELECT workspace_id, id FROM chatbot.widgets WHERE key_hash = :hash")
                .bind("hash", keyHash)
                .map((rs, ctx) -> new KeyOwner(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class)))
                .findOne();
    }

    /** Across workspaces: whether any widget allows an origin (CORS preflights carry no key). */
    boolean anyWidgetAllows(Handle h, String origin) {
        return h.createQuery("SELECT EXISTS (SELECT 1 FROM chatbot.widgets WHERE :origin = ANY (allowed_origins))")
                .bind("origin", origin).mapTo(Boolean.class).one();
    }

    Optional<Widget> find(Handle h, UUID workspaceId, UUID id) {
        return h.createQuery("SELECT " + WIDGET_COLUMNS + " FROM chatbot.widgets WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", id).map((rs, ctx) -> widget(rs)).findOne();
    }

    List<Widget> list(Handle h, UUID workspaceId, int limit, long offset) {
        return h.createQuery("SELECT " + WIDGET_COLUMNS + " FROM chatbot.widgets WHERE workspace_id = :ws "
                        + "ORDER BY created_at, id LIMIT :limit OFFSET :offset")
                .bind("ws", workspaceId).bind("limit", limit).bind("offset", offset)
                .map((rs, ctx) -> widget(rs)).list();
    }

    long count(Handle h, UUID workspaceId) {
        return h.createQuery("SELECT count(*) FROM chatbot.widgets WHERE workspace_id = :ws")
                .bind("ws", workspaceId).mapTo(Long.class).one();
    }

    Widget insert(Handle h, UUID workspaceId, Map<String, Object> f, String key, byte[] keyHash, String keyPrefix,
            String identitySecret) {
        return h.createQuery("INSERT INTO chatbot.widgets (workspace_id, name, allowed_origins, greeting, "
                        + "accent_color, position, streaming, human_handoff, responder, language, responder_settings, "
                        + "office_hours, key_hash, key_prefix, public_key, identity_secret, require_verified_identity) VALUES (:ws, :name, string_to_array(:origins, chr(10)), :greeting, :accent, :position, "
                        + ":streaming, :handoff, :responder, :language, CAST(:settings AS jsonb), CAST(:office_hours AS jsonb), :hash, :prefix, :key, "
                        + ":identity_secret, :require_verified) "
                        + "RETURNING " + WIDGET_COLUMNS)
                .bind("ws", workspaceId).bindMap(f).bind("hash", keyHash).bind("prefix", keyPrefix).bind("key", key)
                .bind("identity_secret", identitySecret).map((rs, ctx) -> widget(rs)).one();
    }

    Optional<Widget> update(Handle h, UUID workspaceId, UUID id, Map<String, Object> f) {
        return h.createQuery("UPDATE chatbot.widgets SET name = :name, allowed_origins = string_to_array(:origins, chr(10)), "
                        + "greeting = :greeting, accent_color = :accent, position = :position, streaming = :streaming, "
                        + "human_handoff = :handoff, responder = :responder, language = :language, "
                        + "responder_settings = CAST(:settings AS jsonb), office_hours = CAST(:office_hours AS jsonb), "
                        + "require_verified_identity = :require_verified, updated_at = now() "
                        + "WHERE workspace_id = :ws AND id = :id RETURNING " + WIDGET_COLUMNS)
                .bind("ws", workspaceId).bind("id", id).bindMap(f).map((rs, ctx) -> widget(rs)).findOne();
    }

    Optional<Widget> rotateKey(Handle h, UUID workspaceId, UUID id, String key, byte[] keyHash, String keyPrefix) {
        return h.createQuery("UPDATE chatbot.widgets SET key_hash = :hash, key_prefix = :prefix, public_key = :key, "
                        + "updated_at = now() "
                        + "WHERE workspace_id = :ws AND id = :id RETURNING " + WIDGET_COLUMNS)
                .bind("ws", workspaceId).bind("id", id).bind("hash", keyHash).bind("prefix", keyPrefix)
                .bind("key", key).map((rs, ctx) -> widget(rs)).findOne();
    }

    /**
     * Gives the widget a new identity secret ({@code onlyIfMissing}: only when it has none, so two first readers
     * agree on one); the widget as it is afterwards.
     */
    Optional<Widget> setIdentitySecret(Handle h, UUID workspaceId, UUID id, String secret, boolean onlyIfMissing) {
        return h.createQuery("UPDATE chatbot.widgets SET identity_secret = CASE WHEN :only AND identity_secret IS NOT NULL "
                        + "THEN identity_secret ELSE :secret END, updated_at = CASE WHEN :only AND identity_secret IS NOT NULL "
                        + "THEN updated_at ELSE now() END "
                        + "WHERE workspace_id = :ws AND id = :id RETURNING " + WIDGET_COLUMNS)
                .bind("ws", workspaceId).bind("id", id).bind("secret", secret).bind("only", onlyIfMissing)
                .map((rs, ctx) -> widget(rs)).findOne();
    }

    boolean delete(Handle h, UUID workspaceId, UUID id) {
        return h.createUpdate("DELETE FROM chatbot.widgets WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", id).execute() > 0;
    }

    // Articles.

    private static final String ARTICLE_COLUMNS = "id, widget_id, title, body, url, language, created_at, updated_at";

    Map<String, Object> insertArticle(Handle h, UUID workspaceId, UUID widgetId, String title, String body, String url,
            String language) {
        return h.createQuery("INSERT INTO chatbot.articles (workspace_id, widget_id, title, body, url, language) "
                        + "VALUES (:ws, :widget, :title, :body, :url, :language) RETURNING " + ARTICLE_COLUMNS)
                .bind("ws", workspaceId).bind("widget", widgetId).bind("title", title).bind("body", body)
                .bind("url", url).bind("language", language).map((rs, ctx) -> article(rs)).one();
    }

    Optional<Map<String, Object>> updateArticle(Handle h, UUID workspaceId, UUID widgetId, UUID id, String title,
            String body, String url, String language) {
        return h.createQuery("UPDATE chatbot.articles SET title = :title, body = :body, url = :url, "
                        + "language = :language, updated_at = now() "
                        + "WHERE workspace_id = :ws AND widget_id = :widget AND id = :id RETURNING " + ARTICLE_COLUMNS)
                .bind("ws", workspaceId).bind("widget", widgetId).bind("id", id).bind("title", title)
                .bind("body", body).bind("url", url).bind("language", language)
                .map((rs, ctx) -> article(rs)).findOne();
    }

    Optional<Map<String, Object>> findArticle(Handle h, UUID workspaceId, UUID widgetId, UUID id) {
        return h.createQuery("SELECT " + ARTICLE_COLUMNS + " FROM chatbot.articles "
                        + "WHERE workspace_id = :ws AND widget_id = :widget AND id = :id")
                .bind("ws", workspaceId).bind("widget", widgetId).bind("id", id)
                .map((rs, ctx) -> article(rs)).findOne();
    }

    List<Map<String, Object>> listArticles(Handle h, UUID workspaceId, UUID widgetId, int limit, long offset) {
        return h.createQuery("SELECT " + ARTICLE_COLUMNS + " FROM chatbot.articles "
                        + "WHERE workspace_id = :ws AND widget_id = :widget ORDER BY created_at, id "
                        + "LIMIT :limit OFFSET :offset")
                .bind("ws", workspaceId).bind("widget", widgetId).bind("limit", limit).bind("offset", offset)
                .map((rs, ctx) -> article(rs)).list();
    }

    long countArticles(Handle h, UUID workspaceId, UUID widgetId) {
        return h.createQuery("SELECT count(*) FROM chatbot.articles WHERE workspace_id = :ws AND widget_id = :widget")
                .bind("ws", workspaceId).bind("widget", widgetId).mapTo(Long.class).one();
    }

    boolean deleteArticle(Handle h, UUID workspaceId, UUID widgetId, UUID id) {
        return h.createUpdate("DELETE FROM chatbot.articles WHERE workspace_id = :ws AND widget_id = :widget AND id = :id")
                .bind("ws", workspaceId).bind("widget", widgetId).bind("id", id).execute() > 0;
    }

    /** A match of the knowledge search. */
    record Hit(UUID id, String title, String body, String url, double rank) {
    }

    /**
     * Articles of a widget in one language matching any of the words, best first: {@code websearch_to_tsquery}
     * with that language's text-search configuration (stemming, stop words).
     */
    List<Hit> search(Handle h, UUID workspaceId, UUID widgetId, String language, String orQuery, int limit) {
        return h.createQuery("""
                        SELECT a.id, a.title, a.body, a.url, ts_rank(a.search, q) AS rank
                          FROM chatbot.articles a, websearch_to_tsquery(chatbot.ts_config(:lang), :query) q
                         WHERE a.workspace_id = :ws AND a.widget_id = :widget AND a.language = :lang
                           AND a.search @@ q
                         ORDER BY rank DESC, a.created_at LIMIT :limit""")
                .bind("ws", workspaceId).bind("widget", widgetId).bind("lang", language).bind("query", orQuery)
                .bind("limit", limit)
                .map((rs, ctx) -> new Hit(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3),
                        rs.getString(4), rs.getDouble(5)))
                .list();
    }

    private static Map<String, Object> article(ResultSet rs) throws SQLException {
        var m = new java.util.LinkedHashMap<String, Object>();
        m.put("id", rs.getObject("id", UUID.class));
        m.put("widget_id", rs.getObject("widget_id", UUID.class));
        m.put("title", rs.getString("title"));
        m.put("body", rs.getString("body"));
        m.put("url", rs.getString("url"));
        m.put("language", rs.getString("language"));
        m.put("created_at", rs.getTimestamp("created_at").toInstant());
        m.put("updated_at", rs.getTimestamp("updated_at").toInstant());
        return m;
    }

    private static Widget widget(ResultSet rs) throws SQLException {
        Array origins = rs.getArray("allowed_origins");
        List<String> list = new ArrayList<>(Arrays.asList((String[]) origins.getArray()));
        JsonNode settings = Json.parse(rs.getString("settings"));
        return new Widget(rs.getObject("id", UUID.class), rs.getObject("workspace_id", UUID.class),
                rs.getString("name"), List.copyOf(list), rs.getString("greeting"), rs.getString("accent_color"),
                rs.getString("position"), rs.getBoolean("streaming"), rs.getBoolean("human_handoff"),
                rs.getString("responder"), rs.getString("language"),
                settings instanceof ObjectNode ? settings : Json.object(),
                OfficeHours.parse(rs.getString("office_hours") == null ? null : Json.parse(rs.getString("office_hours"))),
                rs.getString("key_prefix"), Optional.ofNullable(rs.getString("public_key")),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant(),
                Optional.ofNullable(rs.getString("identity_secret")), rs.getBoolean("require_verified_identity"));
    }
}
