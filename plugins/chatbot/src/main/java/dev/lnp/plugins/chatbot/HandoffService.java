package dev.lnp.plugins.chatbot;

import dev.lnp.api.Json;
import dev.lnp.api.PluginContext;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.internal.mcp.ToolGateway;
import dev.lnp.api.workspace.WorkspaceTx;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * What people do with a conversation handed over to them (take it over, reply, close it) and the hand-off's ticket
 * on the issues plugin's side. The ticket is a record for the support team: the conversation itself lives here, so
 * a visitor still reaches a person when the issues module is off or a tool call fails (the failure is logged).
 */
final class HandoffService {

    private static final System.Logger LOG = System.getLogger(HandoffService.class.getName());
    static final String JOINED = "A team member has joined the conversation.";
    static final String CLOSED = "The team has closed this conversation. The assistant answers your next message.";

    private final Supplier<PluginContext> context;
    private final ChatRepository chats;
    private final HandoffRepository handoffs;

    HandoffService(Supplier<PluginContext> context, ChatRepository chats, HandoffRepository handoffs) {
        this.context = context;
        this.chats = chats;
        this.handoffs = handoffs;
    }

    HandoffRepository.Handoff find(WorkspaceTx tx, UUID workspaceId, UUID sessionId) {
        return handoffs.find(tx.handle(), workspaceId, sessionId).orElseThrow(() -> new ApiProblem(404, "not_found",
                "Not Found", "No conversation handed over to a person has this id."));
    }

    /** A conversation for its page: handed over, or a known visitor's; 404 otherwise. */
    HandoffRepository.Handoff findShown(WorkspaceTx tx, UUID workspaceId, UUID sessionId) {
        return handoffs.findShown(tx.handle(), workspaceId, sessionId).orElseThrow(() -> new ApiProblem(404,
                "not_found", "Not Found", "No conversation handed over to a person, or of a known visitor, has this id."));
    }

    /** Takes the conversation over; a closed one is refused in words. */
    void take(WorkspaceTx tx, UUID ws, UUID sessionId, UUID userId, String email) {
        var handoff = find(tx, ws, sessionId);
        requireOpen(handoff);
        handoffs.take(tx.handle(), ws, sessionId, userId, email);
        if ("waiting".equals(handoff.state())) {
            tellVisitor(tx, ws, sessionId, JOINED);
        }
        tx.events().publish(ChatbotEvents.HANDOFF_TAKEN,
                HandoffRepository.payload(sessionId, handoff.widgetId(), "taken", handoff.ticketId()));
    }

    /**
     * A member's reply: a {@code human_agent} message and its stream event (the widget shows it as soon as the
     * transaction commits), a comment on the ticket when there is one, and the conversation taken over by the member
     * if nobody had it yet.
     */
    void reply(WorkspaceTx tx, UUID ws, UUID sessionId, UUID userId, String email, String text) {
        var handoff = find(tx, ws, sessionId);
        requireOpen(handoff);
        if ("waiting".equals(handoff.state())) {
            handoffs.take(tx.handle(), ws, sessionId, userId, email);
        }
        UUID comment = handoff.ticketId() == null ? null
                : commentOnTicket(ws, userId, handoff.ticketId(), text).orElse(null);
        // Stored with the comment's id: when the comment comes back as an issues event, it is not delivered twice.
        chats.insertAgentMessage(tx.handle(), ws, sessionId, comment, text).ifPresent(message ->
                chats.addEvent(tx.handle(), ws, sessionId, ChatbotEvents.HUMAN_AGENT_MESSAGE, Map.of("message", message)));
        tx.events().publish(ChatbotEvents.HANDOFF_REPLIED,
                HandoffRepository.payload(sessionId, handoff.widgetId(), "taken", handoff.ticketId()));
    }

    /** Closes the conversation: the visitor is told, and the assistant answers from the next message on. */
    void close(WorkspaceTx tx, UUID ws, UUID sessionId) {
        var handoff = find(tx, ws, sessionId);
        requireOpen(handoff);
        handoffs.close(tx.handle(), ws, sessionId);
        tellVisitor(tx, ws, sessionId, CLOSED);
        chats.addEvent(tx.handle(), ws, sessionId, ChatbotEvents.STREAM_HANDOFF_CLOSED, Map.of("state", "closed"));
        tx.events().publish(ChatbotEvents.HANDOFF_CLOSED,
                HandoffRepository.payload(sessionId, handoff.widgetId(), "closed", handoff.ticketId()));
    }

    private void tellVisitor(WorkspaceTx tx, UUID ws, UUID sessionId, String text) {
        var message = chats.insertMessage(tx.handle(), ws, UUID.randomUUID(), sessionId, "system", text, null,
                Json.mapper().createArrayNode());
        chats.addEvent(tx.handle(), ws, sessionId, ChatbotEvents.MESSAGE_COMPLETED, Map.of("message", message));
    }

    private static void requireOpen(HandoffRepository.Handoff handoff) {
        if (!handoff.open()) {
            throw new ApiProblem(409, "conversation_closed", "Conflict", "This conversation is closed: the visitor's "
                    + "messages go to the assistant again. A new request for a person opens it again.");
        }
    }

    // The ticket, through the issues plugin's tools.

    /** Opens the hand-off's ticket; empty when the issues module cannot take it (the hand-off goes on without). */
    Optional<UUID> openTicket(UUID ws, UUID widgetId, String title, String description) {
        var args = Json.object().put("kind", "ticket").put("title", title).put("priority", "high")
                .put("description", description);
        return callTool(ws, widgetId, "issues_create", args);
    }

    /** Adds a comment to the hand-off's ticket as {@code actorId}; empty when that failed. */
    Optional<UUID> commentOnTicket(UUID ws, UUID actorId, UUID ticketId, String body) {
        var args = Json.object().put("issue_id", ticketId.toString()).put("body", body);
        return callTool(ws, actorId, "issues_comment", args);
    }

    /**
     * Calls a tool on a thread of its own: a caller inside a transaction would otherwise have the call join it, and
     * the ticket is a side record that must not roll the conversation back when it fails.
     */
    private Optional<UUID> callTool(UUID ws, UUID actorId, String tool, com.fasterxml.jackson.databind.JsonNode args) {
        AtomicReference<Optional<UUID>> id = new AtomicReference<>(Optional.empty());
        Thread call = Thread.ofVirtual().name("chatbot-" + tool).start(() -> {
            try {
                var gateway = context.get().service(ToolGateway.class).orElseThrow();
                var result = gateway.callAsPlugin(ws, actorId, tool, args);
                var data = Json.mapper().valueToTree(result.data());
                id.set(Optional.of(UUID.fromString(data.get("id").asText())));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "chatbot: " + tool + " for a hand-off failed (is the issues module on?): " + e);
            }
        });
        try {
            call.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return id.get();
    }
}
