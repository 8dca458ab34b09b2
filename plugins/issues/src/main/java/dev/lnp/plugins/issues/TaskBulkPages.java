package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.plugins.projects.api.ProjectDirectory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Changing several tasks at once from the task list: each row has a checkbox, and one form under the list sets the
 * status, the assignee or the cycle of every ticked task, or adds and removes labels. It is the API's bulk update
 * ({@link BulkUpdateService}), all or nothing: a refusal changes no task and says, task by task in words, why.
 */
final class TaskBulkPages {

    static final String ACTION = TaskPages.LIST + "/bulk";
    static final String FIELD = "task_ids";
    /** One list page at most: the list shows up to 100 rows. */
    private static final int MAX_TASKS = 100;
    /** Choices a select can reasonably offer; more cycles or labels than this are reached through the API. */
    private static final int MAX_CHOICES = 200;
    private static final String ME = "me";
    private static final String NOBODY = "nobody";
    private static final String NO_CYCLE = "none";

    private final IssueService issues;
    private final LabelService labels;
    private final BulkUpdateService bulk;
    private final Supplier<ProjectDirectory> projects;
    private final ObjectNode form = form();

    TaskBulkPages(IssueService issues, LabelService labels, BulkUpdateService bulk, Supplier<ProjectDirectory> projects) {
        this.issues = issues;
        this.labels = labels;
        this.bulk = bulk;
        this.projects = projects;
    }

    List<PageRoute> pages() {
        return List.of(PageRoute.action(ACTION).scope(IssueScopes.WRITE).form(form).action(this::apply));
    }

    /** The form under the task list: the action's schema with the workspace's cycles and labels as choices. */
    FormView selectionForm(PageCall call) {
        ObjectNode schema = form.deepCopy();
        ObjectNode properties = (ObjectNode) schema.get("properties");
        ObjectNode statusLabels = properties.withObject("status").putObject("x-enum-labels");
        IssueKind.TASK.statuses.forEach(s -> statusLabels.put(s, IssueLabels.status(s)));
        // The members to choose from are the workspace's of the moment: this form's schema is made per request.
        ObjectNode assignee = properties.withObject("assignee");
        ArrayNode people = assignee.putArray("enum");
        ObjectNode personLabels = assignee.putObject("x-enum-labels");
        for (var member : call.members().choices(call.userId())) {
            String value = member.value().equals(call.userId().toString()) ? ME : member.value();
            people.add(value);
            personLabels.put(value, member.label());
        }
        if (!personLabels.has(ME)) {
            people.insert(0, ME);
            personLabels.put(ME, "Me");
        }
        people.add(NOBODY);
        personLabels.put(NOBODY, "Nobody (unassign)");
        ObjectNode cycle = properties.withObject("cycle");
        ArrayNode cycles = cycle.putArray("enum").add(NO_CYCLE);
        ObjectNode cycleLabels = cycle.putObject("x-enum-labels").put(NO_CYCLE, "No cycle");
        for (var open : projects.get().openCycles(call.tx().handle(), call.workspaceId(), MAX_CHOICES)) {
            cycles.add(open.id().toString());
            cycleLabels.put(open.id().toString(), open.projectName() + ": " + open.name());
        }
        var workspaceLabels = labels.list(call.tx(), new PageRequest(1, 100)).items();
        for (String field : List.of("add_labels", "remove_labels")) {
            ObjectNode property = properties.withObject(field);
            if (workspaceLabels.isEmpty()) {
                properties.remove(field);
                continue;
            }
            ArrayNode choices = ((ObjectNode) property.get("items")).putArray("enum");
            ObjectNode names = property.putObject("x-enum-labels");
            workspaceLabels.forEach(l -> {
                choices.add(l.get("id").asText());
                names.put(l.get("id").asText(), l.get("name").asText());
            });
        }
        return new FormView("Change the ticked tasks", schema, Json.object(), "Apply to ticked tasks", TaskPages.LIST);
    }

    private PageOutcome apply(PageCall call, ObjectNode values) {
        List<UUID> ids = new ArrayList<>();
        values.get(FIELD).forEach(id -> ids.add(UUID.fromString(id.asText())));
        Map<UUID, String> titles = titles(call, ids);
        ObjectNode patch = Json.object();
        List<String> said = new ArrayList<>();
        if (values.hasNonNull("status")) {
            patch.put("status", values.get("status").asText());
            said.add("status " + IssueLabels.status(values.get("status").asText()));
        }
        if (values.hasNonNull("assignee")) {
            String assignee = values.get("assignee").asText();
            if (assignee.equals(ME)) {
                patch.put("assignee_id", call.userId().toString());
                said.add("assigned to you");
            } else if (assignee.equals(NOBODY)) {
                patch.putNull("assignee_id");
                said.add("unassigned");
            } else {
                UUID person = UUID.fromString(assignee);
                patch.put("assignee_id", person.toString());
                said.add("assigned to " + call.members().nameOf(person, call.userId(), "nobody"));
            }
        }
        if (values.hasNonNull("cycle")) {
            String cycle = values.get("cycle").asText();
            if (cycle.equals(NO_CYCLE)) {
                patch.putNull("cycle_id");
                said.add("out of any cycle");
            } else {
                UUID id = cycleId(cycle);
                patch.put("cycle_id", id.toString());
                said.add("cycle " + projects.get().openCycles(call.tx().handle(), call.workspaceId(), MAX_CHOICES)
                        .stream().filter(c -> c.id().equals(id)).map(c -> c.projectName() + ": " + c.name())
                        .findFirst().orElse(cycle));
            }
        }
        for (String field : List.of("add_labels", "remove_labels")) {
            if (values.path(field).isArray() && !values.path(field).isEmpty()) {
                patch.set(field, values.get(field));
                said.add(values.get(field).size() + (values.get(field).size() == 1 ? " label " : " labels ")
                        + (field.startsWith("add") ? "added" : "removed"));
            }
        }
        if (patch.isEmpty()) {
            throw new ApiProblem(400, "nothing_to_change", "Bad Request", "Nothing was changed: choose a status, an "
                    + "assignee, a cycle or a label to apply to the ticked tasks.", List.of(), Map.of());
        }
        ObjectNode body = Json.object();
        ArrayNode issueIds = body.putArray("issueIds");
        ids.forEach(id -> issueIds.add(id.toString()));
        body.set("patch", patch);
        try {
            bulk.apply(call.tx(), body);
        } catch (ApiProblem refused) {
            throw inWords(refused, ids, titles);
        }
        return PageOutcome.goTo(TaskPages.LIST + listQuery(call), ids.size() + (ids.size() == 1 ? " task" : " tasks")
                + " changed (" + String.join(", ", said) + "): " + String.join(", ", titles.values()) + ".");
    }

    /**
     * The ticked tasks' titles, in the order ticked. An id that is not a live task of this workspace (another
     * workspace's, a ticket's, a deleted task's) is refused before anything is changed, as a missing one.
     */
    private Map<UUID, String> titles(PageCall call, List<UUID> ids) {
        Map<UUID, String> titles = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        for (UUID id : ids) {
            try {
                if (issues.ref(call.tx(), id).kind() == IssueKind.TASK) {
                    titles.put(id, "“" + issues.get(call.tx(), id).get("title").asText() + "”");
                    continue;
                }
            } catch (ApiProblem gone) {
                if (gone.status() != 404) throw gone;
            }
            missing.add(id.toString());
        }
        if (!missing.isEmpty()) {
            throw notFound(missing);
        }
        return titles;
    }

    private static ApiProblem notFound(List<String> missing) {
        return new ApiProblem(404, "not_found", "Not Found", "Nothing was changed: " + (missing.size() == 1
                ? "this ticked task does not exist (any more) in this workspace: " : "these ticked tasks do not exist "
                + "(any more) in this workspace: ") + String.join(", ", missing) + ". Reload the list and tick again.",
                List.of(), Map.of());
    }

    /** The bulk update's refusal with each task named by its title rather than its id. */
    private static ApiProblem inWords(ApiProblem refused, List<UUID> ids, Map<UUID, String> titles) {
        List<String> reasons = new ArrayList<>();
        for (FieldError error : refused.errors()) {
            String reason = error.message();
            for (UUID id : ids) {
                reason = reason.replace("task " + id, "task " + titles.get(id)).replace(id.toString(), titles.get(id));
            }
            reasons.add(reason);
        }
        String detail = reasons.isEmpty() ? refused.detail() : "Nothing was changed: " + String.join("; ", reasons) + ".";
        return new ApiProblem(refused.status(), "bulk_update_rejected", "Unprocessable Content", detail, List.of(),
                Map.of());
    }

    private static UUID cycleId(String text) {
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException notAnId) {
            throw ApiProblem.invalid("Choose a cycle from the list.", List.of(new FieldError("/cycle", "format",
                    "Choose a cycle from the list.")));
        }
    }

    /** The list's filters, order and page, carried by the form's address so the list comes back as it was. */
    static String listQuery(PageCall call) {
        List<String> query = new ArrayList<>();
        for (String name : List.of("search", "status", "mine", "sort", "project_id", "cycle_id", "page", "limit")) {
            call.queryAll(name).forEach(value -> query.add(name + "="
                    + java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8)));
        }
        return query.isEmpty() ? "" : "?" + String.join("&", query);
    }

    /** The action's form: which tasks, and what to change; a field left empty changes nothing. */
    private static ObjectNode form() {
        ObjectNode schema = Json.object().put("type", "object").put("title", "Change tasks");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject(FIELD).put("type", "array").put("x-input", "checkboxes").put("title", "Tasks")
                .put("minItems", 1).put("maxItems", MAX_TASKS).put("uniqueItems", true)
                .putObject("items").put("type", "string").put("format", "uuid");
        ObjectNode status = properties.putObject("status").put("type", "string").put("title", "Status");
        IssueKind.TASK.statuses.forEach(status.putArray("enum")::add);
        // Me, nobody or a member's id (the list's form offers the members); whether the id is a member of this
        // workspace is the bulk update's check, as through the API.
        properties.putObject("assignee").put("type", "string").put("title", "Assignee")
                .put("pattern", "^(" + ME + "|" + NOBODY + "|[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12})$")
                .put("x-pattern-hint", "Choose a member, yourself or nobody from the list");
        properties.putObject("cycle").put("type", "string").put("title", "Cycle")
                .put("description", "a cycle of the ticked tasks' project");
        for (String field : List.of("add_labels", "remove_labels")) {
            properties.putObject(field).put("type", "array").put("x-input", "checkboxes")
                    .put("title", field.startsWith("add") ? "Add labels" : "Remove labels").put("maxItems", 50)
                    .put("uniqueItems", true).putObject("items").put("type", "string").put("format", "uuid");
        }
        schema.putArray("required").add(FIELD);
        return schema;
    }
}
