package dev.lnp.plugins.chatbot;

import dev.lnp.api.chat.Conversation;
import dev.lnp.api.chat.Reply;
import dev.lnp.api.chat.ReplySink;
import dev.lnp.api.chat.Responder;

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
