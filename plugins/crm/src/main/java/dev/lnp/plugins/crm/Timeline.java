package dev.lnp.plugins.crm;


import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.Members;
import dev.lnp.api.pages.PageCall;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Activity entries as a timeline people read: when (the application shows times in words of its own), what happened
 * in a sentence, and who did it. The sentence depends on whose page it is on: a contact's page says "Changed
 * phone", a company's "Ada Lovelace: changed phone", a deal's page leaves out the deal's name.
 */
final class Timeline {

    /** Entries a record's own page shows; the rest are a link away, on the timeline's own pages. */
    static final int ON_THE_PAGE = 10;

    enum Of { CONTACT, COMPANY, DEAL }

    private Timeline() {
    }

    static List<Column> columns() {
        return List.of(Column.of("When", "at"), Column.of("What happened", "sentence"), Column.of("By", "by"));
    }

    static ListView list(String title, RowsPage page, Of of, PageCall call) {
        List<ObjectNode> rows = page.rows().stream().map(row -> readable(row, of, call)).toList();
        return ListView.of(title, columns(), rows, page.hasMore()).emptyText("Nothing has happened here yet.");
    }

    static ObjectNode readable(ObjectNode entry, Of of, PageCall call) {
        ObjectNode row = Json.object();
        row.put("id", entry.get("id").asText());
        row.put("at", entry.get("at").asText());
        row.put("sentence", sentence(entry, of));
        row.put("by", by(entry, call.members(), call.userId()));
        return row;
    }

    static String sentence(JsonNode entry, Of of) {
        String what = entry.path("what").asText();
        String deal = of == Of.DEAL ? "" : "Deal “" + entry.path("subject").asText() + "” ";
        String contact = entry.hasNonNull("contact_name") ? entry.get("contact_name").asText() : "a deleted contact";
        String company = entry.hasNonNull("company_name") ? entry.get("company_name").asText() : "a deleted company";
        String fields = fields(entry.path("fields"));
        String from = stage(entry.path("from"));
        String to = stage(entry.path("to"));
        String sentence = switch (what) {
            case "contact.created" -> of == Of.CONTACT ? "Contact created" : "Contact " + contact + " created";
            case "contact.changed" -> (of == Of.CONTACT ? "Changed " : contact + ": changed ") + fields;
            case "company.created" -> "Company created";
            case "company.changed" -> "Changed " + fields;
            case "deal.created" -> deal + "created in " + to;
            case "deal.changed" -> deal + "changed: " + fields;
            case "deal.moved" -> deal + "moved from " + from + " to " + to;
            case "deal.won" -> deal + "won (from " + from + ")";
            case "deal.lost" -> deal + "lost (from " + from + ")";
            case "deal.reopened" -> deal + "reopened in " + to;
            case "deal.linked" -> deal + "linked to " + (entry.hasNonNull("contact_id") ? contact : company);
            case "deal.unlinked" -> deal + "no longer linked to " + (entry.hasNonNull("contact_id") ? contact : company);
            case "deal.deleted" -> deal + "deleted";
            default -> what;
        };
        return Character.toUpperCase(sentence.charAt(0)) + sentence.substring(1);
    }

    /**
     * Who: the signed-in person is "You", another member their name ("Former member" once they left the workspace),
     * a key its connection's id, as the console's list of connections shows it (the platform gives pages members'
     * names, not connections').
     */
    static String by(JsonNode entry, Members members, UUID me) {
        String connection = entry.hasNonNull("connection_id")
                ? "API connection " + entry.get("connection_id").asText() : null;
        if (!entry.path("actor_type").asText().equals("member")) return connection;
        String member = members.nameOf(UUID.fromString(entry.path("actor_id").asText()), me, "Nobody");
        return connection == null ? member : member + ", through " + connection;
    }

    private static String fields(JsonNode fields) {
        List<String> names = new ArrayList<>();
        fields.forEach(f -> names.add(field(f.asText())));
        return String.join(", ", names);
    }

    /** {@code expected_close_date} as "expected close date", {@code company_id} as "company". */
    static String field(String name) {
        return (name.endsWith("_id") ? name.substring(0, name.length() - 3) : name).replace('_', ' ');
    }

    private static String stage(JsonNode stage) {
        return stage.isTextual() ? CrmLabels.stage(stage.asText()) : "";
    }
}
