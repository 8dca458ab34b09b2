package dev.lnp.plugins.chatbot;

import java.time.LocalDate;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** The counters of a widget's language model use ({@code chatbot.llm_usage}), per conversation and per day. */
final class LlmUsageRepository {

    record Usage(long requests, long tokens) {
    }

    static String sessionPeriod(UUID sessionId) {
        return "session:" + sessionId;
    }

    static String dayPeriod(LocalDate day) {
        return "day:" + day;
    }

    /** The period's counters, locked until the transaction ends, so that two nodes never both take the last request. */
    Usage lock(Handle h, UUID ws, UUID widgetId, String period) {
        h.createUpdate("INSERT INTO chatbot.llm_usage (workspace_id, widget_id, period) VALUES (:ws, :widget, :period) "
                + "ON CONFLICT (widget_id, period) DO NOTHING")
                .bind("ws", ws).bind("widget", widgetId).bind("period", period).execute();
        return h.createQuery("SELECT requests, tokens FROM chatbot.llm_usage WHERE workspace_id = :ws "
                + "AND widget_id = :widget AND period = :period FOR UPDATE")
                .bind("ws", ws).bind("widget", widgetId).bind("period", period)
                .map((rs, ctx) -> new Usage(rs.getLong("requests"), rs.getLong("tokens"))).one();
    }

    void add(Handle h, UUID ws, UUID widgetId, String period, int requests, long tokens) {
        h.createUpdate("UPDATE chatbot.llm_usage SET requests = requests + :requests, tokens = tokens + :tokens, "
                + "updated_at = now() WHERE workspace_id = :ws AND widget_id = :widget AND period = :period")
                .bind("ws", ws).bind("widget", widgetId).bind("period", period).bind("requests", requests)
                .bind("tokens", tokens).execute();
    }
}
