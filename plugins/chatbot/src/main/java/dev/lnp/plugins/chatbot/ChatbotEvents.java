package dev.lnp.plugins.chatbot;

/**
 * Event names: the outbox event (webhooks) and the names of the Server-Sent Events of {@code /api/cxo/stream}, which
 * are not webhooks (they are rows of {@code chatbot.events}, read by each stream).
 */
public final class ChatbotEvents {

    /** Outbox: a visitor was handed over to a person (a support ticket was opened). */
    public static final String HANDOFF_OPENED = "chatbot.handoff.opened";
    /** The issues plugin's event this plugin subscribes to: replies on hand-off tickets reach the visitor. */
    public static final String COMMENT_CREATED = "issues.comment.created";

    // Stream events.
    public static final String MESSAGE_DELTA = "message.delta";
    public static final String MESSAGE_COMPLETED = "message.completed";
    public static final String HUMAN_AGENT_MESSAGE = "human_agent.message";
    public static final String RUN_COMPLETED = "run.completed";
    public static final String RUN_FAILED = "run.failed";
    public static final String STREAM_HANDOFF_OPENED = "handoff.opened";
    public static final String TOKEN_EXPIRED = "token.expired";

    private ChatbotEvents() {
    }
}
