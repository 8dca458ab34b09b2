package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.plugins.crm.ActivityRepository.Entry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * Which activity entries a change makes, from the record before and after it. A deal's stage and status make one
 * entry of their own (moved, won, lost, reopened) and its contact and company links one each (linked, unlinked);
 * every other changed field is named in one "changed" entry. Values are not kept, only field names: the entries
 * say what happened without copying a contact's data into a second place.
 */
final class Activity {

    /** Fields every write touches or that never change: not news. */
    private static final Set<String> BOOKKEEPING = Set.of("id", "workspace_id", "created_at", "updated_at");
    private static final Set<String> DEAL_LINKS = Set.of("contact_id", "company_id");
    private static final Set<String> DEAL_STATE = Set.of("stage", "status", "actual_close_date");

    private Activity() {
    }

    static List<Entry> contactChanged(ObjectNode before, ObjectNode after) {
        List<String> fields = changed(before, after, Set.of());
        return fields.isEmpty() ? List.of() : List.of(new Entry("contact.changed", id(after, "id"),
                id(after, "company_id"), null, null, fields, null, null));
    }

    static List<Entry> companyCreated(ObjectNode company) {
        return List.of(new Entry("company.created", null, id(company, "id"), null, null, List.of(), null, null));
    }

    static List<Entry> companyChanged(ObjectNode before, ObjectNode after) {
        List<String> fields = changed(before, after, Set.of());
        return fields.isEmpty() ? List.of() : List.of(new Entry("company.changed", null, id(after, "id"), null, null,
                fields, null, null));
    }

    static List<Entry> dealCreated(ObjectNode deal) {
        return List.of(deal("deal.created", deal, List.of(), null, deal.path("stage").asText()));
    }

    static List<Entry> dealDeleted(ObjectNode deal) {
        return List.of(deal("deal.deleted", deal, List.of(), null, null));
    }

    static List<Entry> dealChanged(ObjectNode before, ObjectNode after) {
        List<Entry> entries = new ArrayList<>();
        String statusBefore = before.path("status").asText();
        String status = after.path("status").asText();
        String stageBefore = before.path("stage").asText();
        String stage = after.path("stage").asText();
        boolean stateEntry = true;
        if (!status.equals(statusBefore) && status.equals("closed_won")) {
            entries.add(deal("deal.won", after, List.of(), stageBefore, stage));
        } else if (!status.equals(statusBefore) && status.equals("closed_lost")) {
            entries.add(deal("deal.lost", after, List.of(), stageBefore, stage));
        } else if (statusBefore.startsWith("closed_") && !status.startsWith("closed_")) {
            entries.add(deal("deal.reopened", after, List.of(), stageBefore, stage));
        } else if (!stage.equals(stageBefore)) {
            entries.add(deal("deal.moved", after, List.of(), stageBefore, stage));
        } else {
            stateEntry = false;
        }
        for (String link : DEAL_LINKS) {
            UUID was = id(before, link);
            UUID is = id(after, link);
            if (Objects.equals(was, is)) continue;
            if (was != null) entries.add(link("deal.unlinked", after, link, was));
            if (is != null) entries.add(link("deal.linked", after, link, is));
        }
        Set<String> covered = new java.util.HashSet<>(DEAL_LINKS);
        if (stateEntry) covered.addAll(DEAL_STATE);
        List<String> fields = changed(before, after, covered);
        if (!fields.isEmpty()) entries.add(deal("deal.changed", after, fields, null, null));
        return entries;
    }

    /** The fields whose value differs, in the record's order, without those in {@code covered}. */
    private static List<String> changed(ObjectNode before, ObjectNode after, Set<String> covered) {
        List<String> fields = new ArrayList<>();
        after.fieldNames().forEachRemaining(field -> {
            if (BOOKKEEPING.contains(field) || covered.contains(field)) return;
            if (!same(before.get(field), after.get(field))) fields.add(field);
        });
        return fields;
    }

    /** Equal values, where a missing field and a null one are the same, and 100 and 100.0 are too. */
    private static boolean same(JsonNode a, JsonNode b) {
        boolean aNull = a == null || a.isNull();
        boolean bNull = b == null || b.isNull();
        if (aNull || bNull) return aNull == bNull;
        if (a.isNumber() && b.isNumber()) return a.decimalValue().compareTo(b.decimalValue()) == 0;
        return a.equals(b);
    }

    private static Entry deal(String what, ObjectNode deal, List<String> fields, String from, String to) {
        return new Entry(what, id(deal, "contact_id"), id(deal, "company_id"), id(deal, "id"),
                deal.path("title").asText(), fields, from, to);
    }

    /** A link entry names only the record linked or unlinked, so it shows on that record's timeline alone. */
    private static Entry link(String what, ObjectNode deal, String field, UUID linked) {
        return new Entry(what, field.equals("contact_id") ? linked : null, field.equals("company_id") ? linked : null,
                id(deal, "id"), deal.path("title").asText(), List.of(field), null, null);
    }

    private static UUID id(JsonNode record, String field) {
        JsonNode value = record.get(field);
        return value == null || value.isNull() || value.asText().isEmpty() ? null : UUID.fromString(value.asText());
    }
}
