package dev.lnp.plugins.chatbot;

import dev.lnp.plugins.chatbot.api.Conversation;
import dev.lnp.plugins.chatbot.api.Reply;
import dev.lnp.plugins.chatbot.api.ReplySink;
import dev.lnp.plugins.chatbot.api.Responder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers without a language model: the best passage the workspace's knowledge has for the question (hybrid
 * retrieval, {@link Retriever}) is the answer, under its heading, citing its page (the source's URL and the
 * heading's anchor). When nothing relevant is found it says so and offers a person. A visitor asking for a person is
 * handed over.
 */
final class KnowledgeResponder implements Responder {

    static final String ID = "knowledge";
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]{2,}");

    /** Found when a question comes: responders are registered before the plugin starts, the retriever after. */
    private final Supplier<Retriever> retriever;

    KnowledgeResponder(Supplier<Retriever> retriever) {
        this.retriever = retriever;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Reply respond(Conversation c, ReplySink sink) {
        if (HandoffIntent.asksForPerson(c.message())) {
            return Reply.handoff(null);
        }
        List<Retriever.Found> found = retriever.get().retrieve(c.workspaceId(), c.language(),
                c.settings().getOrDefault("language", "en"), c.message(), 3);
        if (found.isEmpty()) {
            return Reply.notKnown(notKnown(c));
        }
        var best = found.get(0).stored();
        Passage p = best.passage();
        String heading = p.heading().isEmpty() || p.heading().equals(p.title()) ? p.title()
                : p.title() + " › " + p.heading();
        List<Reply.Citation> citations = new ArrayList<>();
        citations.add(new Reply.Citation(heading, p.link(best.url())));
        return Reply.answer(heading + ": " + p.text(), citations);
    }

    /** The message's words joined with {@code or}, for websearch_to_tsquery (its own syntax is thus neutralised). */
    static String orQuery(String message) {
        return String.join(" or ", words(message));
    }

    /**
     * The message's words for websearch_to_tsquery, every one required (its stop words are dropped by the
     * text-search configuration): far fewer passages match than with {@link #orQuery}, so far fewer are ranked.
     */
    static String andQuery(String message) {
        return String.join(" ", words(message));
    }

    /** At most 32 words of letters and digits, without {@code or} (an operator to websearch_to_tsquery). */
    private static List<String> words(String message) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(message);
        while (m.find() && words.size() < 32) {
            String w = m.group();
            if (!w.equalsIgnoreCase("or")) {
                words.add(w);
            }
        }
        return words;
    }

    /** Nothing relevant: said plainly, with the way to a person where the widget has one. */
    static String notKnown(Conversation c) {
        boolean person = !"false".equals(c.settings().get("human_handoff"));
        return "I don't know the answer to that: our help articles don't cover it."
                + (person ? " A person from the team can help: choose \"Talk to a person\", or ask for one here."
                        : " Try asking in other words.");
    }
}
