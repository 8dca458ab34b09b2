package dev.lnp.plugins.chatbot;

import dev.lnp.plugins.chatbot.api.Conversation;
import dev.lnp.plugins.chatbot.api.Reply;
import dev.lnp.plugins.chatbot.api.ReplySink;
import dev.lnp.plugins.chatbot.api.Responder;

/** Hands every conversation to a person: each first message opens a support ticket. */
final class HandoffResponder implements Responder {

    static final String ID = "handoff";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Reply respond(Conversation conversation, ReplySink sink) {
        return Reply.handoff(null);
    }
}
