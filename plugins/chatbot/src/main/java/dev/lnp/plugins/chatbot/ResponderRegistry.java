package dev.lnp.plugins.chatbot;

import dev.lnp.plugins.chatbot.api.Responder;
import dev.lnp.plugins.chatbot.api.Responders;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/** The deployment's responders: the built-in ones and those plugins register ({@link Responders}). */
final class ResponderRegistry implements Responders {

    private final Map<String, Responder> responders = new ConcurrentHashMap<>();

    @Override
    public void register(Responder responder) {
        String id = responder.id();
        if (id == null || !id.matches("[a-z][a-z0-9_-]{0,62}")) {
            throw new IllegalArgumentException("a responder id is lowercase letters, digits, - and _, not " + id);
        }
        if (responders.putIfAbsent(id, responder) != null) {
            throw new IllegalStateException("a responder " + id + " is already registered");
        }
    }

    @Override
    public Optional<Responder> find(String id) {
        return Optional.ofNullable(responders.get(id));
    }

    @Override
    public Set<String> ids() {
        return new TreeSet<>(responders.keySet());
    }
}
