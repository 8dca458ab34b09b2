package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.pages.EnumLabels;
import dev.lnp.api.pages.Filter.Choice;
import java.util.List;

/**
 * The words of a task's or ticket's status and priority, as the create schema declares them beside each
 * {@code enum}: lists, boards, filters, record pages and forms all read them from there, so a label is written once.
 */
final class IssueLabels {

    static final JsonNode ISSUE = JsonSchemas.load(IssueSchemas.class, "issue-create.json");

    private IssueLabels() {
    }

    /** {@code in_progress} as "In progress". */
    static String status(String status) {
        return EnumLabels.of(ISSUE, "status", status);
    }

    /** {@code urgent} as "Urgent". */
    static String priority(String priority) {
        return EnumLabels.of(ISSUE, "priority", priority);
    }

    /** A filter's choices of {@code statuses}, in their order. */
    static List<Choice> statuses(List<String> statuses) {
        return statuses.stream().map(s -> new Choice(s, status(s))).toList();
    }

    /** An item row with {@code status_label} and {@code priority_label} beside the values. */
    static ObjectNode row(ObjectNode item) {
        return EnumLabels.labelled(item, ISSUE);
    }

    /** The schema's {@code status} and {@code priority} choices shown in words, as a form shows them. */
    static void declare(ObjectNode properties) {
        for (String name : List.of("status", "priority")) {
            JsonNode labels = ISSUE.path("properties").path(name).path(EnumLabels.KEYWORD);
            if (properties.has(name)) properties.withObject(name).set(EnumLabels.KEYWORD, labels.deepCopy());
        }
    }
}
