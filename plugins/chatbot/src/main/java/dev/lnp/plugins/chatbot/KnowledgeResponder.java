package dev.lnp.plugins.chatbot;

import dev.lnp.api.PluginContext;
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
 * Answers from the widget's articles: PostgreSQL full-text search in the visitor's language (its text-search
 * configuration: stemming and stop words), any of the message's words ({@code websearch_to_tsquery} with
 * {@code or}), best match first; falls back to the widget's default language. The answer quotes the best article's
 * opening and cites the matching articles. A visitor asking for a person is handed over.
 */
final class KnowledgeResponder implements Responder {

    static final String ID = "knowledge";
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]{2,}");
    private static final int EXCERPT = 600;

    private final Supplier<PluginContext> context;
    private final WidgetRepository repo;

    KnowledgeResponder(Supplier<PluginContext> context, WidgetRepository repo) {
        this.context = context;
        this.repo = repo;
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
        String query = orQuery(c.message());
        if (query.isEmpty()) {
            return Reply.answer(notFound());
        }
        List<WidgetRepository.Hit> hits = context.get().inWorkspace(c.workspaceId(), tx -> {
            List<WidgetRepository.Hit> found = repo.search(tx.handle(), c.workspaceId(), c.widgetId(), c.language(),
                    query, 3);
            String fallback = c.settings().getOrDefault("language", "en");
            if (found.isEmpty() && !fallback.equals(c.language())) {
                found = repo.search(tx.handle(), c.workspaceId(), c.widgetId(), fallback, query, 3);
            }
            return found;
        });
        if (hits.isEmpty()) {
            return Reply.answer(notFound());
        }
        WidgetRepository.Hit best = hits.get(0);
        String body = best.body().strip();
        String excerpt = body.length() <= EXCERPT ? body : body.substring(0, cut(body)) + "…";
        List<Reply.Citation> citations = new ArrayList<>();
        for (var hit : hits) {
            citations.add(new Reply.Citation(hit.title(), hit.url()));
        }
        return Reply.answer(best.title() + ": " + excerpt, citations);
    }

    private static int cut(String body) {
        int space = body.lastIndexOf(' ', EXCERPT);
        return space > EXCERPT / 2 ? space : EXCERPT;
    }

    /** The message's words joined with {@code or}, for websearch_to_tsquery (its own syntax is thus neutralised). */
    static String orQuery(String message) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(message);
        while (m.find() && words.size() < 32) {
            String w = m.group();
            if (!w.equalsIgnoreCase("or")) {
                words.add(w);
            }
        }
        return String.join(" or ", words);
    }

    private static String notFound() {
        return "Sorry, I could not find an answer to that in our help articles. Try other words, or ask to talk to a "
                + "person.";
    }
}
