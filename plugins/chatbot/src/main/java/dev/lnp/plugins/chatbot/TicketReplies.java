package dev.lnp.plugins.chatbot;

import dev.lnp.api.PluginContext;
import dev.lnp.api.internal.events.DeliveredEvent;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Comments on hand-off tickets reach the visitor: the issues plugin's {@code issues.comment.created} events are
 * delivered to this plugin in process ({@code Subscriptions.subscribe}); a comment on a ticket a session was handed
 * over to becomes a {@code human_agent} message and a {@code human_agent.message} stream event, once per comment
 * (a reply written in the chat inbox is stored with its comment's id, so it is not delivered a second time).
 * Internal notes ({@code internal: true}) are for the workspace's members and never reach the visitor.
 */
final class TicketReplies {

    private final Supplier<PluginContext> context;
    private final ChatRepository chats;

    TicketReplies(Supplier<PluginContext> context, ChatRepository chats) {
        this.context = context;
        this.chats = chats;
    }

    void onComment(DeliveredEvent event) {
        var payload = event.payload();
        if (!"ticket".equals(payload.path("issue_kind").asText()) || !payload.hasNonNull("issue_id")
                || payload.path("internal").asBoolean(false)) {
            return;
        }
        UUID ticketId = UUID.fromString(payload.get("issue_id").asText());
        UUID commentId = UUID.fromString(payload.get("id").asText());
        String text = payload.path("body").asText("");
        UUID ws = event.workspaceId();
        context.get().inWorkspace(ws, tx -> {
            var session = chats.sessionOfTicket(tx.handle(), ws, ticketId);
            // The widget is the author of the visitor's own messages copied to the ticket: not a reply.
            if (session.isEmpty() || session.get().widgetId().toString().equals(payload.path("author_id").asText())) {
                return null;
            }
            chats.insertAgentMessage(tx.handle(), ws, session.get().id(), commentId, text).ifPresent(message ->
                    chats.addEvent(tx.handle(), ws, session.get().id(), ChatbotEvents.HUMAN_AGENT_MESSAGE,
                            Map.of("message", message)));
            return null;
        });
    }
}
