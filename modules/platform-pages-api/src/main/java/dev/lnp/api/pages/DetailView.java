package dev.lnp.api.pages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One record: its fields as label and text, the lists that belong to it (a company's contacts, a task's
 * comments), what can be done to it, and forms filled in on the page itself (a reply under a conversation).
 */
public record DetailView(String title, List<Field> fields, List<ListView> related, List<Link> actions,
        List<InlineForm> forms) implements PageView {

    /**
     * One labelled value; {@code value} is text (the web layer escapes it), {@code null} shows as a dash. A
     * {@code copyable} value (an embed snippet, a command) is shown whole as a code block with a Copy button that
     * puts it on the clipboard and says so to screen readers (the platform's own script: no page brings its own).
     */
    public record Field(String label, String value, boolean copyable) {
        public Field {
            Objects.requireNonNull(label, "label");
        }

        public Field(String label, String value) {
            this(label, value, false);
        }

        /** A value shown as a code block with a Copy button. */
        public static Field copyable(String label, String value) {
            return new Field(label, value, true);
        }
    }

    /**
     * A form shown under the record's lists, posted to {@code action}: an action of the page API whose form schema
     * is the form's. When the action refuses what was sent, the person stays on this page: the form comes back with
     * what they typed and each error next to its field. The form's {@code cancel} is not shown.
     */
    public record InlineForm(String action, FormView form) {
        public InlineForm {
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(form, "form");
            if (!action.startsWith("/app/") && !action.startsWith("/console/")) {
                throw new IllegalArgumentException("an inline form posts to an action of the platform: " + action);
            }
        }
    }

    public DetailView {
        Objects.requireNonNull(title, "title");
        fields = List.copyOf(fields);
        related = List.copyOf(related);
        actions = List.copyOf(actions);
        forms = forms == null ? List.of() : List.copyOf(forms);
    }

    public DetailView(String title, List<Field> fields, List<ListView> related, List<Link> actions) {
        this(title, fields, related, actions, List.of());
    }

    public static DetailView of(String title, List<Field> fields) {
        return new DetailView(title, fields, List.of(), List.of());
    }

    public DetailView related(ListView... lists) {
        return new DetailView(title, fields, List.of(lists), actions, forms);
    }

    public DetailView actions(Link... actions) {
        return new DetailView(title, fields, related, List.of(actions), forms);
    }

    /** The same record with one more form on its page, generated from {@code schema} as a {@link FormView} is. */
    public DetailView withForm(String title, String action, JsonNode schema, ObjectNode values, String submitLabel) {
        return withForm(action, new FormView(title, schema, values, submitLabel, null));
    }

    /** The same record with one more form on its page (a {@link FormView} with choices, say). */
    public DetailView withForm(String action, FormView form) {
        List<InlineForm> all = new ArrayList<>(forms);
        all.add(new InlineForm(action, form));
        return new DetailView(title, fields, related, actions, all);
    }
}
