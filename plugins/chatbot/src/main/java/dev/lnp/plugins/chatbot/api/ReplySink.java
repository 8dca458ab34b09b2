package dev.lnp.plugins.chatbot.api;

/** Where a streaming responder sends its answer piece by piece (each becomes a {@code message.delta} event). */
@FunctionalInterface
public interface ReplySink {
    void delta(String text);
}
