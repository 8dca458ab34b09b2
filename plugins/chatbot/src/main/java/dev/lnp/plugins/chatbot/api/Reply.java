package dev.lnp.plugins.chatbot.api;

import java.util.List;
import java.util.Objects;

/**
 * A responder's outcome: an answer (text and the sources it cites), or a request to hand the conversation over to
 * a person (the chatbot plugin opens a support ticket with the transcript), optionally with a text to show first.
 */
public record Reply(String text, List<Citation> citations, boolean handoff) {

    public Reply {
        citations = List.copyOf(citations);
        if (!handoff) {
            Objects.requireNonNull(text, "text");
        }
    }

    public static Reply answer(String text, List<Citation> citations) {
        return new Reply(text, citations, false);
    }

    public static Reply answer(String text) {
        return new Reply(text, List.of(), false);
    }

    /** Hands over to a person; {@code text} (may be null) is shown to the visitor before the hand-off notice. */
    public static Reply handoff(String text) {
        return new Reply(text, List.of(), true);
    }

    /** A source an answer is based on: an article's title and its URL (may be null). */
    public record Citation(String title, String url) {
    }
}
