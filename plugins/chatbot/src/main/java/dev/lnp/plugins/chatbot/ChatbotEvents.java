package dev.lnp.plugins.chatbot;

/**
 * Event names: the outbox event (webhooks) and the names of the Server-Sent Events of {@code /api/cxo/stream}, which
 * are not webhooks (they are rows of {@code chatbot.events}, read by each stream).
 */
public final class ChatbotEvents {

    /** Outbox: a visitor was handed over to a person (a support ticket was opened). */
    public static final String HANDOFF_OPENED = "chatbot.handoff.opened";
    /** Outbox: a visitor wrote in a conversation handed over to a person. */
    public static final String HANDOFF_MESSAGE = "chatbot.handoff.message";
    /** Outbox: a member took a handed-over conversation over. */
    public static final String HANDOFF_TAKEN = "chatbot.handoff.taken";
    /** Outbox: a member replied to the visitor. */
    public static final String HANDOFF_REPLIED = "chatbot.handoff.replied";
    /** Outbox: a member closed the conversation; the assistant answers again. */
    public static final String HANDOFF_CLOSED = "chatbot.handoff.closed";
    /** The issues plugin's event this plugin subscribes to: replies on hand-off tickets reach the visitor. */
    public static final String COMMENT_CREATED = "issues.comment.created";

    // Stream events.
    public static final String MESSAGE_DELTA = "message.delta";
    public static final String MESSAGE_COMPLETED = "message.completed";
    public static final String HUMAN_AGENT_MESSAGE = "human_agent.message";
    public static final String RUN_COMPLETED = "run.completed";
    public static final String RUN_FAILED = "run.failed";
    public static final String STREAM_HANDOFF_OPENED = "handoff.opened";
    public static final String STREAM_HANDOFF_CLOSED = "handoff.closed";
    public static final String TOKEN_EXPIRED = "token.expired";

    private ChatbotEvents() {
    }
}
