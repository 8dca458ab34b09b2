package dev.lnp.api.pages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A form generated from a JSON Schema, posted to the {@linkplain PageRoute#action action} of the same path: each
 * property (in the schema's order) is one field labelled by its {@code title} (else its name), with its
 * {@code description} as help; {@code string} is a text input ({@code format: email} and {@code uri} their own,
 * {@code maxLength} above 255 a text area), {@code enum} a choice, {@code boolean} a checkbox, {@code integer} and
 * {@code number} a number input, an {@code array} of strings one value a line. Give the action the same schema as
 * the API's route, and the page and the API accept the same values.
 *
 * <p>Fields whose values are the workspace's records (an assignee, a project, a company) take the choices of the
 * moment with {@link #withChoices}: the schema stays the API's (the web layer keeps it between requests), the choices
 * come with each request. The field is then a choice of those records by their labels, and a long list (more than
 * {@link #SEARCH_ABOVE}) gets a search box that narrows it as the person types. The action still receives whatever
 * value was posted, checked by its schema and by the service as the API checks it: the choices help people, they are
 * not the rule.
 *
 * @param values the values the fields start with (the record's, when editing); empty for a new one, which starts
 *               from each property's {@code default}
 * @param cancel where "Cancel" goes
 * @param choices per field name, the records to choose from, in the order shown
 */
public record FormView(String title, JsonNode schema, ObjectNode values, String submitLabel, String cancel,
        Map<String, List<Choice>> choices) implements PageView {

    /** Above this many choices a field gets a search box that narrows its list while typing. */
    public static final int SEARCH_ABOVE = 30;

    /** A record to choose: the value posted (its id) and the words shown. */
    public record Choice(String value, String label) {
        public Choice {
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(label, "label");
        }
    }

    public FormView {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(values, "values");
        if (submitLabel == null) submitLabel = "Save";
        choices = choices == null ? Map.of() : Map.copyOf(choices);
        choices.values().forEach(Objects::requireNonNull);
    }

    public FormView(String title, JsonNode schema, ObjectNode values, String submitLabel, String cancel) {
        this(title, schema, values, submitLabel, cancel, Map.of());
    }

    /** The same form, with {@code field} a choice of {@code choices} (replacing any given before). */
    public FormView withChoices(String field, List<Choice> choices) {
        Objects.requireNonNull(field, "field");
        Map<String, List<Choice>> all = new LinkedHashMap<>(this.choices);
        all.put(field, List.copyOf(choices));
        return new FormView(title, schema, values, submitLabel, cancel, all);
    }
}
