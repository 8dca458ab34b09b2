package dev.lnp.api.pages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A form generated from a JSON Schema, posted to the {@linkplain PageRoute#action action} of the same path: each
 * property (in the schema's order) is one field labelled by its {@code title} (else its name), with its
 * {@code description} as help; {@code string} is a text input ({@code format: email} and {@code uri} their own,
 * {@code maxLength} above 255 a text area), {@code enum} a choice, {@code boolean} a checkbox, {@code integer} and
 * {@code number} a number input, an {@code array} of strings one value a line. Give the action the same schema as
 * the API's route, and the page and the API accept the same values.
 *
 * @param values the values the fields start with (the record's, when editing); empty for a new one, which starts
 *               from each property's {@code default}
 * @param cancel where "Cancel" goes
 */
public record FormView(String title, JsonNode schema, ObjectNode values, String submitLabel, String cancel)
        implements PageView {

    public FormView {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(values, "values");
        if (submitLabel == null) submitLabel = "Save";
    }
}
