package dev.lnp.plugins.chatbot.api;

/**
 * Answers a chat widget's visitor. A widget names its responder by {@link #id()}; the chatbot plugin runs it on
 * a virtual thread for each visitor message (a persisted "run", resumed on another node if this one dies, so
 * {@link #respond} may be called again for the same run: keep it free of side effects other than the answer, or
 * make them idempotent on {@link Conversation#runId()}).
 *
 * <p>Built in: {@code knowledge} (full-text search over the widget's articles), {@code handoff} (always asks for a
 * person) and {@code openai} (an OpenAI-compatible chat-completions server). A third-party plugin declares
 * {@code plugin.dependencies=chatbot}, and in {@code start} registers its own:
 * {@code context.service(Responders.class).orElseThrow().register(new MyResponder())}.
 */
public interface Responder {

    /** Lowercase id, unique across the deployment (e.g. {@code acme-faq}); what a widget's {@code responder} names. */
    String id();

    /**
     * Produces the answer. Streaming responders push text pieces through {@code sink.delta(...)} as they come
     * (the visitor sees them live); the returned {@link Reply} carries the final text, which is what history keeps.
     * Throwing fails the run ({@code run.failed} in the stream); the visitor sees a polite error.
     */
    Reply respond(Conversation conversation, ReplySink sink) throws Exception;
}
