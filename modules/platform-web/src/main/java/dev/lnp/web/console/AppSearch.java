package dev.lnp.web.console;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.db.Transactions;
import dev.lnp.api.internal.platform.PluginCatalog;
import dev.lnp.api.pages.PageSearch;
import dev.lnp.api.pages.SearchHit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The application's search ({@code /app/search?q=…}): one text asked of every {@link PageSearch} source whose
 * module is switched on for the workspace and whose scope the person's role grants, a few hits of each kind, all in
 * one workspace transaction (row-level security applies as on the pages). A GET form, so it works without script;
 * with it, htmx asks {@link #SUGGESTIONS} for the same hits as the options of a list under the box while typing.
 */
final class AppSearch {

    static final String PATH = "/app/search";
    static final String SUGGESTIONS = PATH + "/suggestions";
    /** Each kind shows its best few; the kind's own list finds the rest. */
    static final int HITS_PER_KIND = 5;
    static final int MAX_WORDS = 10;

    private final Console console;
    private final Transactions transactions;

    AppSearch(Console console, Transactions transactions) {
        this.console = console;
        this.transactions = transactions;
    }

    void page(ConsoleExchange x) {
        ConsoleSession session = x.requireWorkspaceSession();
        Found found = search(x, session);
        show(x, session, found.error() == null ? 200 : 400, "search.jte", found);
    }

    /**
     * The same search as a fragment of the shell's suggestion list (what htmx asks while the person types): one
     * option per hit and one that opens the whole search page, which also tells why a text cannot be searched.
     * Always 200, so that htmx swaps it in.
     */
    void suggestions(ConsoleExchange x) {
        ConsoleSession session = x.requireWorkspaceSession();
        show(x, session, 200, "searchsuggestions.jte", search(x, session));
    }

    /** What was asked, every kind searched with its hits, or why the text cannot be searched. */
    private record Found(String text, List<Views.SearchGroup> groups, String error) {
    }

    private Found search(ConsoleExchange x, ConsoleSession session) {
        String asked = x.query("q");
        String text = asked == null ? "" : asked.strip();
        List<PluginCatalog.Search> sources = sources(session);
        if (text.isEmpty()) {
            return new Found(text, sources.stream().map(s -> group(s, List.of())).toList(), null);
        }
        String refused = refusal(text);
        if (refused != null) {
            return new Found(text, List.of(), refused);
        }
        try {
            return new Found(text, PluginCode.inWorkspace(transactions, session.workspaceId(), tx -> {
                var call = new PersonCall(console, x, session, tx);
                List<Views.SearchGroup> found = new ArrayList<>();
                for (PluginCatalog.Search source : sources) {
                    found.add(group(source, source.search().source().find(call, text, HITS_PER_KIND)));
                }
                return found;
            }), null);
        } catch (ApiProblem problem) {
            if (problem.status() >= 500) throw problem;
            return new Found(text, List.of(), problem.detail());
        }
    }

    /** Why {@code text} cannot be searched, in words; {@code null} when it can. */
    static String refusal(String text) {
        if (text.length() > PageSearch.MAX_LENGTH) {
            return "The search is " + text.length() + " characters long; search for at most " + PageSearch.MAX_LENGTH
                    + ", a few words that the record contains.";
        }
        if (text.chars().anyMatch(c -> Character.isISOControl(c) && !Character.isWhitespace(c))) {
            return "The search contains control characters; type the words you are looking for.";
        }
        if (text.split("\\s+").length > MAX_WORDS) {
            return "The search has more than " + MAX_WORDS + " words; a few words that the record contains find it.";
        }
        return null;
    }

    /** The sources this person is asked: their module switched on here, their scope granted to the role. */
    private List<PluginCatalog.Search> sources(ConsoleSession session) {
        List<String> disabled = console.workspaceSettings().disabledModules(session.workspaceId());
        Set<String> granted = console.plugins().scopesOfRole(session.role());
        return console.plugins().searches().stream()
                .filter(s -> !disabled.contains(s.pluginId()) && granted.contains(s.search().scope()))
                .toList();
    }

    private static Views.SearchGroup group(PluginCatalog.Search source, List<SearchHit> hits) {
        return new Views.SearchGroup(source.search().kind(),
                hits.size() > HITS_PER_KIND ? List.copyOf(hits.subList(0, HITS_PER_KIND)) : List.copyOf(hits));
    }

    private void show(ConsoleExchange x, ConsoleSession session, int status, String template, Found found) {
        String text = found.text();
        String title = text.isEmpty() ? "Search" : "Search: " + (text.length() > 60 ? text.substring(0, 60) + "…" : text);
        x.render(status, template, new Views.SearchPage(console.pageChrome(session, title, PATH,
                text.length() > PageSearch.MAX_LENGTH ? "" : text), text, found.groups(), found.error()));
    }
}
