package dev.lnp.plugins.crm;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A search text split into words, each escaped for use inside a LIKE pattern. Accents and case are folded
 * by the database (the same function that builds the indexed search text), not here.
 */
final class SearchWords {

    static final int MAX_WORDS = 10;

    private SearchWords() {
    }

    /** @param pointer where the text came from, for the error (e.g. {@code ?search} or {@code /query}) */
    static List<String> of(String text, String pointer) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        List<String> words = Arrays.stream(text.trim().split("\\s+")).map(SearchWords::escapeLike).toList();
        if (words.size() > MAX_WORDS) {
            throw pointer.startsWith("?")
                    ? new ApiProblem(400, "invalid_query", "Bad Request", "search has more than " + MAX_WORDS
                            + " words.", List.of(new FieldError(pointer, "maxWords",
                            "search may have at most " + MAX_WORDS + " words")), Map.of())
                    : ApiProblem.invalidField(pointer, "maxWords", "query may have at most " + MAX_WORDS + " words");
        }
        return words;
    }

    private static String escapeLike(String word) {
        return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
