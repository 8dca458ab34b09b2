package dev.lnp.api.pages;

import java.util.List;
import java.util.Objects;

/**
 * A filter of a list, kept in the page's query string so a filtered list is a link people can share: free text
 * ({@link #search}), one of a few values ({@link #choice}) or several of them ({@link #anyOf}). The renderer reads
 * it back with {@link PageCall#query} or {@link PageCall#queryAll}.
 */
public record Filter(String param, String label, Kind kind, List<Choice> choices) {

    public enum Kind { SEARCH, CHOICE, ANY_OF }

    /** A value of a choice, and its label. */
    public record Choice(String value, String label) {
        public Choice {
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(label, "label");
        }
    }

    public Filter {
        Objects.requireNonNull(param, "param");
        Objects.requireNonNull(label, "label");
        choices = List.copyOf(choices);
        if (kind != Kind.SEARCH && choices.isEmpty()) throw new IllegalArgumentException("filter " + param + " has no choices");
    }

    public static Filter search(String param, String label) {
        return new Filter(param, label, Kind.SEARCH, List.of());
    }

    public static Filter choice(String param, String label, List<Choice> choices) {
        return new Filter(param, label, Kind.CHOICE, choices);
    }

    public static Filter anyOf(String param, String label, List<Choice> choices) {
        return new Filter(param, label, Kind.ANY_OF, choices);
    }
}
