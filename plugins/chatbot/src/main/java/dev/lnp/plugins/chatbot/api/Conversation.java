package dev.lnp.plugins.chatbot.api;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a responder is given.
 *
 * @param language the visitor's language (BCP 47 primary subtag, e.g. {@code en}, {@code de}): the browser's, else
 *                 the widget's default
 * @param message  the visitor's message being answered
 * @param history  the session's earlier messages, oldest first (not including {@code message})
 * @param settings the widget's responder settings (e.g. {@code base_url}, {@code model} for {@code openai})
 */
public record Conversation(UUID workspaceId, UUID widgetId, UUID sessionId, UUID runId, String language,
        String message, List<Turn> history, Map<String, String> settings) {

    public Conversation {
        history = List.copyOf(history);
        settings = Map.copyOf(settings);
    }

    /** One earlier message: role {@code visitor}, {@code assistant}, {@code human_agent} or {@code system}. */
    public record Turn(String role, String text) {
    }
}
