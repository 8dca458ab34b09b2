package dev.lnp.plugins.chatbot.api;

import java.util.Optional;
import java.util.Set;

/** The deployment's responders, offered by the chatbot plugin: third-party plugins add theirs in {@code start}. */
public interface Responders {

    /** Adds a responder; its id must be new. */
    void register(Responder responder);

    Optional<Responder> find(String id);

    Set<String> ids();
}
