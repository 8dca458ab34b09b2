package dev.lnp.api.pages;

import java.util.List;
import java.util.Objects;

/**
 * What a module offers the application's search box ({@code /app/search}): one kind of record (contacts, tasks…)
 * found by a text. The web layer asks a source only in workspaces where its plugin is switched on and only for
 * people whose role grants its {@code scope} (the scope its list page needs), at most {@code limit} hits each;
 * the source reads in the request's workspace transaction, so row-level security applies as on its pages.
 *
 * <pre>{@code
 * PageRegistrar.of(registrar).search(new PageSearch("Items", NotesScopes.READ, (call, text, limit) ->
 *         items.search(call.tx(), text, limit).stream()
 *                 .map(item -> new SearchHit(item.text(), item.created(), "/app/notes/items/" + item.id()))
 *                 .toList()));
 * }</pre>
 *
 * @param kind the heading its hits are grouped under, plural ("Contacts")
 * @param scope the scope the person's role must grant; usually the read scope of the kind's list page
 */
public record PageSearch(String kind, String scope, Source source) {

    /** Finds records of this kind whose searchable text contains {@code text}. */
    @FunctionalInterface
    public interface Source {
        /**
         * @param call the person and the workspace transaction ({@code call.may}, {@code call.userId} for rules
         *             finer than the scope); the query and path of {@code call} are the search page's, not yours
         * @param text what was typed, stripped, never blank, at most {@link #MAX_LENGTH} characters
         * @param limit the most hits wanted; read no more (a {@code LIMIT}, best served by an index)
         * @return hits in the order to show them; an {@link dev.lnp.api.http.ApiProblem} with a 4xx status is
         *         shown to the person as a problem with the search (e.g. too many words)
         */
        List<SearchHit> find(PageCall call, String text, int limit) throws Exception;
    }

    /** The longest text the search box sends to sources; a longer one is refused with a readable page. */
    public static final int MAX_LENGTH = 200;

    public PageSearch {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(scope, () -> "search " + kind + " needs a scope");
        Objects.requireNonNull(source, () -> "search " + kind + " needs a source");
        if (kind.isBlank()) throw new IllegalArgumentException("a search needs a kind to group its hits under");
    }
}
