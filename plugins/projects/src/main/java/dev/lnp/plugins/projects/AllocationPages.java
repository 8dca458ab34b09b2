package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.pages.FormChanges;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageView;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Planning allocations in the workspace application, reached from the capacity view: a person's (or a project's)
 * allocations, one allocation's page, its change (the API's update, sent only what changed) and its deletion after
 * a confirmation. A change that overbooks a week is saved, as through the API; the capacity view marks the week.
 */
final class AllocationPages {

    static final String LIST = "/app/projects/allocations";

    private final AllocationService allocations;
    private final ProjectSchemas schemas;

    AllocationPages(AllocationService allocations, ProjectSchemas schemas) {
        this.allocations = allocations;
        this.schemas = schemas;
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(LIST).scope(ProjectScopes.PLANNING_READ).liveOn("planning.allocation.*")
                        .renderer(this::list),
                PageRoute.view(LIST + "/{id}").scope(ProjectScopes.PLANNING_READ).renderer(this::detail),
                PageRoute.view(LIST + "/{id}/edit").scope(ProjectScopes.PLANNING_WRITE).renderer(call -> {
                    ObjectNode allocation = allocations.get(call.tx(), call.pathId("id"));
                    return new FormView("Change the allocation", schemas.allocationPatch,
                            FormChanges.editable(allocation, schemas.allocationPatch), "Save",
                            LIST + "/" + allocation.get("id").asText());
                }),
                PageRoute.action(LIST + "/{id}/edit").scope(ProjectScopes.PLANNING_WRITE).form(schemas.allocationPatch)
                        .action((call, values) -> {
                            UUID id = call.pathId("id");
                            ObjectNode changes = FormChanges.changes(allocations.get(call.tx(), id), values,
                                    schemas.allocationPatch);
                            if (changes.isEmpty()) return PageOutcome.goTo(LIST + "/" + id, "Nothing was changed.");
                            allocations.update(call.tx(), id, changes);
                            return PageOutcome.goTo(LIST + "/" + id, "Allocation saved. The capacity view shows "
                                    + "whether a week is now overbooked.");
                        }),
                PageRoute.action(LIST + "/{id}/delete").scope(ProjectScopes.PLANNING_WRITE).button()
                        .action((call, values) -> {
                            UUID id = call.pathId("id");
                            ObjectNode allocation = allocations.get(call.tx(), id);
                            allocations.delete(call.tx(), id);
                            return PageOutcome.goTo(LIST + "?user_id=" + allocation.get("user_id").asText(),
                                    "Allocation from " + allocation.get("start_date").asText() + " to "
                                            + allocation.get("end_date").asText() + " deleted.")
                                    .recorded("planning.allocation_deleted", id.toString(), null);
                        }));
    }

    private PageView list(PageCall call) {
        UUID user = uuid(call, "user_id");
        UUID project = uuid(call, "project_id");
        var page = allocations.list(call.tx(), user, project, call.page());
        List<ObjectNode> rows = page.items().stream().map(a -> a.deepCopy().put("amount", amount(a))
                .put("person", person(call, a))).toList();
        return new ListView(user == null ? "Allocations" : "Allocations of " + person(call, user), List.of(
                Column.of("From", "start_date").linkedTo(LIST + "/{id}"),
                Column.of("To", "end_date"),
                Column.of("Person", "person"),
                Column.of("Booked", "amount"),
                Column.of("Project", "project_id").linkedTo(ProjectPages.LIST + "/{project_id}"),
                Column.of("Note", "note")), List.of(), rows, page.page().hasMore(),
                List.of(Link.to("Capacity", CapacityPages.PATH)), "No allocations.");
    }

    private PageView detail(PageCall call) {
        UUID id = call.pathId("id");
        ObjectNode allocation = allocations.get(call.tx(), id);
        List<Field> fields = new ArrayList<>(List.of(
                new Field("Person", person(call, allocation)),
                new Field("From", allocation.get("start_date").asText()),
                new Field("To", allocation.get("end_date").asText()),
                new Field("Booked", amount(allocation))));
        for (String name : List.of("project_id", "issue_id", "note", "created_at", "updated_at")) {
            JsonNode value = allocation.get(name);
            if (value != null && !value.isNull()) fields.add(new Field(label(name), value.asText()));
        }
        DetailView view = new DetailView("Allocation " + allocation.get("start_date").asText() + " to "
                + allocation.get("end_date").asText(), fields, List.of(), List.of(Link.to("Capacity", CapacityPages.PATH)));
        return call.may(ProjectScopes.PLANNING_WRITE)
                ? view.actions(Link.to("Change", LIST + "/" + id + "/edit"), Link.post("Delete", LIST + "/" + id
                        + "/delete", "Delete this allocation; its hours leave the person's weeks."),
                        Link.to("Capacity", CapacityPages.PATH))
                : view;
    }

    /** What an allocation books, in the unit it was given. */
    private static String amount(JsonNode allocation) {
        return allocation.hasNonNull("hours_per_day")
                ? allocation.get("hours_per_day").decimalValue().stripTrailingZeros().toPlainString() + " h a working day"
                : allocation.get("percentage").decimalValue().stripTrailingZeros().toPlainString() + " % of the week";
    }

    private static String person(PageCall call, JsonNode allocation) {
        return person(call, UUID.fromString(allocation.get("user_id").asText()));
    }

    /** The person by name from the workspace's members ("you" for the signed-in person). */
    private static String person(PageCall call, UUID user) {
        return user.equals(call.userId()) ? "you" : call.members().nameOf(user, call.userId(), "nobody");
    }

    private static UUID uuid(PageCall call, String name) {
        try {
            return call.query(name).map(UUID::fromString).orElse(null);
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
    }

    private static String label(String name) {
        String spaced = name.replace("_id", "").replace('_', ' ');
        return Character.toUpperCase(spaced.charAt(0)) + spaced.substring(1);
    }
}
