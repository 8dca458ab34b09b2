package dev.lnp.server;

import io.helidon.common.uri.UriPath;
import io.helidon.http.PathMatcher;
import io.helidon.http.PathMatchers;
import java.util.Optional;

/**
 * Helidon's matcher for a route's path template, asked only when the request's path starts with the template's
 * literal head (what comes before its first parameter or wildcard, without the slash before it). Helidon tries the
 * routes in the order they were registered and matches each templated path with a regular expression, so a request
 * to a plugin registered late (crm) ran the expression of every earlier plugin's templated route first: about 2 % of
 * a page-1 request's CPU samples, and a {@code Matcher} allocated per route tried. A string comparison now turns
 * those down. A template's expression is anchored at the start, so a path that does not start with the head never
 * matched it.
 */
public final class LiteralHeadMatcher implements PathMatcher {

    private final String head;
    private final PathMatcher template;

    private LiteralHeadMatcher(String head, PathMatcher template) {
        this.head = head;
        this.template = template;
    }

    /** Helidon's matcher for {@code path}, behind its literal head when it has parameters or wildcards. */
    public static PathMatcher of(String path) {
        PathMatcher template = PathMatchers.create(path);
        String head = head(path);
        return head == null || head.isEmpty() ? template : new LiteralHeadMatcher(head, template);
    }

    /**
     * What every path the template matches starts with: the template up to the first character Helidon's templates
     * give a meaning, without the slash just before it ({@code /api/mcp/*} also matches {@code /api/mcp}); null when
     * the template is all literal (Helidon compares it as a string already).
     */
    static String head(String path) {
        for (int i = 0; i < path.length(); i++) {
            switch (path.charAt(i)) {
                case '{', '[', '*', '\\' -> {
                    int end = i > 0 && path.charAt(i - 1) == '/' ? i - 1 : i;
                    return path.substring(0, end);
                }
                default -> {
                }
            }
        }
        return null;
    }

    @Override
    public PathMatchers.MatchResult match(UriPath path) {
        return path.path().startsWith(head) ? template.match(path) : PathMatchers.MatchResult.notAccepted();
    }

    @Override
    public PathMatchers.PrefixMatchResult prefixMatch(UriPath path) {
        return path.path().startsWith(head) ? template.prefixMatch(path) : PathMatchers.PrefixMatchResult.notAccepted();
    }

    @Override
    public Optional<String> matchingElement() {
        return template.matchingElement();
    }
}
