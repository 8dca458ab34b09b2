package dev.lnp.api.pages;

import java.util.List;
import java.util.Objects;

/**
 * One record: its fields as label and text, the lists that belong to it (a company's contacts, a task's
 * comments), and what can be done to it.
 */
public record DetailView(String title, List<Field> fields, List<ListView> related, List<Link> actions)
        implements PageView {

    /** One labelled value; {@code value} is text (the web layer escapes it), {@code null} shows as a dash. */
    public record Field(String label, String value) {
        public Field {
            Objects.requireNonNull(label, "label");
        }
    }

    public DetailView {
        Objects.requireNonNull(title, "title");
        fields = List.copyOf(fields);
        related = List.copyOf(related);
        actions = List.copyOf(actions);
    }

    public static DetailView of(String title, List<Field> fields) {
        return new DetailView(title, fields, List.of(), List.of());
    }

    public DetailView related(ListView... lists) {
        return new DetailView(title, fields, List.of(lists), actions);
    }

    public DetailView actions(Link... actions) {
        return new DetailView(title, fields, related, List.of(actions));
    }
}
