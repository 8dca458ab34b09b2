package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageRoute;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * What is missing, for the workspace's admins: the answers visitors rated down (question, answer, sources), their
 * satisfaction with whole conversations (CSAT average and distribution), and the questions the assistant could not
 * answer (nothing relevant in the knowledge), most frequent first, each with a link to write the missing article.
 * The API route {@code GET /api/v1/chatbot/insights} and the page {@code /app/chat/insights} show the same.
 */
final class ChatInsights {

    static final String API = "/api/v1/chatbot/insights";
    static final String PAGE = "/app/chat/insights";
    static final List<String> PERIODS = List.of("7", "30", "90");
    private static final int ROWS = 50;
    /** What the route answers, as the OpenAPI document shows it. */
    private static final JsonNode SCHEMA = JsonSchemas.load(ChatInsights.class, "chat-insights.json");

    List<RouteSpec> routes() {
        return List.of(RouteSpec.get(API).scope(ChatbotScopes.READ).returns(SCHEMA)
                .query(QueryParam.oneOf("days", PERIODS, "the period: the last 7, 30 (default) or 90 days"))
                .summary("Answers rated down, CSAT average and distribution, and unanswered questions (most "
                        + "frequent first) over a period")
                .handler(r -> ApiResponse.of(read(r.tx().handle(), r.tx().workspaceId(),
                        days(r.query("days").orElse(null))))));
    }

    List<PageRoute> pages() {
        return List.of(PageRoute.view(PAGE).scope(ChatbotScopes.READ).nav("Support", "Chat insights")
                .renderer(this::page));
    }

    static int days(String value) {
        return value != null && PERIODS.contains(value) ? Integer.parseInt(value) : 30;
    }

    /** Everything the page and the route show, for the last {@code days} days. */
    Map<String, Object> read(Handle h, UUID ws, int days) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("days", days);
        out.put("csat", csat(h, ws, days));
        out.put("rated_down", ratedDown(h, ws, days));
        out.put("unanswered", unanswered(h, ws, days));
        return out;
    }

    private static Map<String, Object> csat(Handle h, UUID ws, int days) {
        Map<String, Object> distribution = new LinkedHashMap<>();
        for (int s = 1; s <= 5; s++) {
            distribution.put(String.valueOf(s), 0L);
        }
        long count = 0;
        long sum = 0;
        for (var row : h.createQuery("SELECT score, count(*) FROM chatbot.session_ratings WHERE workspace_id = :ws "
                        + "AND updated_at >= now() - make_interval(days => :days) GROUP BY score")
                .bind("ws", ws).bind("days", days)
                .map((rs, ctx) -> Map.entry(rs.getInt(1), rs.getLong(2))).list()) {
            distribution.put(String.valueOf(row.getKey()), row.getValue());
            count += row.getValue();
            sum += row.getKey() * row.getValue();
        }
        Map<String, Object> csat = new LinkedHashMap<>();
        csat.put("count", count);
        csat.put("average", count == 0 ? null : Math.round(sum * 100.0 / count) / 100.0);
        csat.put("distribution", distribution);
        return csat;
    }

    private static List<Map<String, Object>> ratedDown(Handle h, UUID ws, int days) {
        return h.createQuery("SELECT a.id, a.session_id, q.text AS question, a.text AS answer, a.citations::text, "
                        + "r.updated_at FROM chatbot.message_ratings r "
                        + "JOIN chatbot.messages a ON a.id = r.message_id AND a.workspace_id = r.workspace_id "
                        + "LEFT JOIN chatbot.runs u ON u.id = a.run_id AND u.workspace_id = a.workspace_id "
                        + "LEFT JOIN chatbot.messages q ON q.id = u.message_id AND q.workspace_id = u.workspace_id "
                        + "WHERE r.workspace_id = :ws AND r.rating < 0 "
                        + "AND r.updated_at >= now() - make_interval(days => :days) "
                        + "ORDER BY r.updated_at DESC LIMIT " + ROWS)
                .bind("ws", ws).bind("days", days)
                .map((rs, ctx) -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("message_id", rs.getObject(1, UUID.class));
                    m.put("session_id", rs.getObject(2, UUID.class));
                    m.put("question", rs.getString(3));
                    m.put("answer", rs.getString(4));
                    m.put("sources", Json.parse(rs.getString(5)));
                    m.put("rated_at", rs.getTimestamp(6).toInstant());
                    return m;
                }).list();
    }

    /** The same question asked again counts once more: compared without case and extra spaces. */
    private static List<Map<String, Object>> unanswered(Handle h, UUID ws, int days) {
        return h.createQuery("SELECT (array_agg(q.text ORDER BY u.created_at DESC))[1], count(*), max(u.created_at) "
                        + "FROM chatbot.runs u JOIN chatbot.messages q ON q.id = u.message_id "
                        + "AND q.workspace_id = u.workspace_id "
                        + "WHERE u.workspace_id = :ws AND u.unanswered "
                        + "AND u.created_at >= now() - make_interval(days => :days) "
                        + "GROUP BY lower(regexp_replace(btrim(q.text), '\\s+', ' ', 'g')) "
                        + "ORDER BY count(*) DESC, max(u.created_at) DESC LIMIT " + ROWS)
                .bind("ws", ws).bind("days", days)
                .map((rs, ctx) -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("question", rs.getString(1));
                    m.put("count", rs.getLong(2));
                    m.put("last_asked_at", rs.getTimestamp(3).toInstant());
                    return m;
                }).list();
    }

    private DetailView page(PageCall call) {
        int days = days(call.query("days").orElse(null));
        Map<String, Object> data = read(call.tx().handle(), call.workspaceId(), days);
        @SuppressWarnings("unchecked")
        Map<String, Object> csat = (Map<String, Object>) data.get("csat");
        @SuppressWarnings("unchecked")
        Map<String, Object> distribution = (Map<String, Object>) csat.get("distribution");
        long rated = (Long) csat.get("count");

        List<ObjectNode> unanswered = new ArrayList<>();
        for (var u : list(data, "unanswered")) {
            String question = (String) u.get("question");
            unanswered.add(Json.object().put("question", question).put("count", (Long) u.get("count"))
                    .put("last_asked_at", u.get("last_asked_at").toString()).put("add", "Add an article")
                    .put("title", abbreviate(question, 200)));
        }
        ListView unansweredList = ListView.of("Unanswered questions", List.of(Column.of("Question", "question"),
                        Column.of("Times asked", "count"), Column.of("Last asked", "last_asked_at"),
                        Column.of("Knowledge", "add").linkedTo(KnowledgePages.BASE + "/new?title={title}")),
                unanswered, false)
                .emptyText("No unanswered questions in this period: the knowledge had something for every "
                        + "question.");

        List<ObjectNode> down = new ArrayList<>();
        for (var d : list(data, "rated_down")) {
            StringBuilder sources = new StringBuilder();
            for (var c : (com.fasterxml.jackson.databind.JsonNode) d.get("sources")) {
                if (!sources.isEmpty()) {
                    sources.append("; ");
                }
                sources.append(c.path("title").asText());
                if (c.path("url").isTextual()) {
                    sources.append(" (").append(c.path("url").asText()).append(')');
                }
            }
            down.add(Json.object().put("question", d.get("question") == null ? "—" : (String) d.get("question"))
                    .put("answer", (String) d.get("answer"))
                    .put("sources", sources.isEmpty() ? "None" : sources.toString())
                    .put("rated_at", d.get("rated_at").toString()));
        }
        ListView downList = ListView.of("Answers rated down", List.of(Column.of("Question", "question"),
                        Column.of("Answer", "answer"), Column.of("Sources", "sources"),
                        Column.of("Rated", "rated_at")), down, false)
                .emptyText("No answer was rated down in this period.");

        List<ObjectNode> scores = new ArrayList<>();
        for (int s = 5; s >= 1; s--) {
            long n = (Long) distribution.get(String.valueOf(s));
            scores.add(Json.object().put("score", s + " of 5").put("conversations", n)
                    .put("share", rated == 0 ? "—" : Math.round(n * 100.0 / rated) + " %"));
        }
        ListView distributionList = ListView.of("Satisfaction (CSAT) by score", List.of(Column.of("Score", "score"),
                Column.of("Conversations", "conversations"), Column.of("Share", "share")), scores, false);

        Object average = csat.get("average");
        DetailView view = DetailView.of("Chat insights", List.of(
                new Field("Period", "The last " + days + " days"),
                new Field("Satisfaction (CSAT)", rated == 0 ? "No conversation rated yet"
                        : String.format(Locale.ROOT, "%.2f of 5, from %d rated conversation%s", (Double) average,
                                rated, rated == 1 ? "" : "s")),
                new Field("Unanswered questions", String.valueOf(unanswered.size())
                        + (unanswered.size() == ROWS ? " or more" : "")),
                new Field("Answers rated down", String.valueOf(down.size())
                        + (down.size() == ROWS ? " or more" : ""))))
                .related(unansweredList, downList, distributionList);
        List<Link> periods = new ArrayList<>();
        for (String p : PERIODS) {
            if (Integer.parseInt(p) != days) {
                periods.add(Link.to("Last " + p + " days", PAGE + "?days=" + p));
            }
        }
        periods.add(Link.to("Chat knowledge", KnowledgePages.BASE));
        return view.actions(periods.toArray(Link[]::new));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> data, String key) {
        return (List<Map<String, Object>>) data.get(key);
    }

    private static String abbreviate(String s, int max) {
        String line = s.replaceAll("\\s+", " ").strip();
        return line.length() <= max ? line : line.substring(0, max - 1) + "…";
    }
}
