package dev.lnp.plugins.chatbot.api;

import java.util.List;
import java.util.Objects;

/**
 * A responder's outcome: an answer (text and the sources it cites), or a request to hand the conversation over to
 * a person (the chatbot plugin opens a support ticket with the transcript), optionally with a text to show first.
 * An answer saying that the knowledge has nothing on the question is {@link #notKnown(String) unanswered}: the
 * chat insights page lists those questions, so that someone writes the article that was missing.
 */
public record Reply(String text, List<Citation> citations, boolean handoff, boolean unanswered) {

    public Reply {
        citations = List.copyOf(citations);
        if (!handoff) {
            Objects.requireNonNull(text, "text");
        }
    }

    public Reply(String text, List<Citation> citations, boolean handoff) {
        this(text, citations, handoff, false);
    }

    public static Reply answer(String text, List<Citation> citations) {
        return new Reply(text, citations, false);
    }

    public static Reply answer(String text) {
        return new Reply(text, List.of(), false);
    }

    /** An answer saying the assistant does not know: nothing relevant was found for the question. */
    public static Reply notKnown(String text) {
        return new Reply(text, List.of(), false, true);
    }

    /** The same answer marked unanswered (or not). */
    public Reply unanswered(boolean unanswered) {
        return new Reply(text, citations, handoff, unanswered);
    }

    /** Hands over to a person; {@code text} (may be null) is shown to the visitor before the hand-off notice. */
    public static Reply handoff(String text) {
        return new Reply(text, List.of(), true);
    }

    /** A source an answer is based on: an article's title and its URL (may be null). */
    public record Citation(String title, String url) {
    }
}
