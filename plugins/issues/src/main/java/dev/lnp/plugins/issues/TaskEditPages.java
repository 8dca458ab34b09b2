package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.pages.FormChanges;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What is done to one task from its page: edit it (the API's update, sent only the fields the person changed),
 * comment on it, and delete it after a confirmation. A ticket's id is not a task here and answers the not-found
 * page, as another workspace's id does.
 */
final class TaskEditPages {

    private static final String LIST = TaskPages.LIST;
    /** The labels people read for the fields whose names are the API's. */
    private static final Map<String, String> TITLES = Map.of("project_id", "Project", "cycle_id", "Cycle",
            "assignee_id", "Assignee", "due_at", "Due", "parent_id", "Parent task", "estimate_hours", "Estimate (hours)",
            "start_date", "Start date");

    private final IssueService issues;
    private final CommentService comments;
    private final IssueSchemas schemas;
    private final ObjectNode editForm;
    private final TaskChoices choices;

    TaskEditPages(IssueService issues, CommentService comments, IssueSchemas schemas, TaskChoices choices) {
        this.issues = issues;
        this.comments = comments;
        this.schemas = schemas;
        this.choices = choices;
        this.editForm = editForm(schemas.issuePatch);
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(LIST + "/{id}/edit").scope(IssueScopes.WRITE).renderer(call -> {
                    ObjectNode task = task(call);
                    return choices.offer(call, new FormView("Edit " + task.get("title").asText(), editForm,
                            FormChanges.editable(task, editForm), "Save", LIST + "/" + task.get("id").asText()), task);
                }),
                PageRoute.action(LIST + "/{id}/edit").scope(IssueScopes.WRITE).form(editForm)
                        .action((call, values) -> {
                            ObjectNode stored = task(call);
                            UUID id = call.pathId("id");
                            ObjectNode changes = FormChanges.changes(stored, values, editForm);
                            if (changes.isEmpty()) return PageOutcome.goTo(LIST + "/" + id, "Nothing was changed.");
                            ObjectNode task = issues.update(call.tx(), id, changes);
                            return PageOutcome.goTo(LIST + "/" + id, "Task " + task.get("title").asText() + " saved.");
                        }),
                PageRoute.view(LIST + "/{id}/comments/new").scope(IssueScopes.WRITE).renderer(call -> {
                    ObjectNode task = task(call);
                    return new FormView("Comment on " + task.get("title").asText(), schemas.commentCreate,
                            Json.object(), "Add comment", LIST + "/" + task.get("id").asText());
                }),
                PageRoute.action(LIST + "/{id}/comments/new").scope(IssueScopes.WRITE).form(schemas.commentCreate)
                        .action((call, values) -> {
                            ObjectNode task = task(call);
                            comments.addAsMember(call.tx(), call.userId(), call.pathId("id"), values);
                            return PageOutcome.goTo(LIST + "/" + call.pathId("id"), "Comment added to "
                                    + task.get("title").asText() + ".");
                        }),
                PageRoute.action(LIST + "/{id}/delete").scope(IssueScopes.WRITE).button()
                        .action((call, values) -> {
                            ObjectNode task = task(call);
                            issues.delete(call.tx(), call.pathId("id"));
                            return PageOutcome.goTo(LIST, "Task " + task.get("title").asText() + " deleted.")
                                    .recorded("issues.task_deleted", task.get("title").asText() + " ("
                                            + task.get("id").asText() + ")", null);
                        }));
    }

    /** The task the path names: a live task of this workspace, else the not-found page. */
    private ObjectNode task(PageCall call) {
        UUID id = call.pathId("id");
        if (issues.ref(call.tx(), id).kind() != IssueKind.TASK) throw IssueService.notFound();
        return issues.get(call.tx(), id);
    }

    /** Statuses and priorities in words, and help that speaks of a task rather than of the API's items. */
    static void readable(ObjectNode properties) {
        IssueLabels.declare(properties);
        for (String name : List.of("status", "priority")) {
            properties.withObject(name).remove("description");
        }
        properties.withObject("due_at").put("description", "a date and time, e.g. 2026-12-01T17:00:00Z");
        properties.withObject("assignee_id").put("description", "the member who works on it");
        properties.withObject("cycle_id").put("description", "a cycle of the task's project");
        properties.withObject("parent_id").put("description", "the task this one is part of");
        properties.withObject("project_id").remove("description");
    }

    /**
     * The edit form: the API's update fields a person changes on a task, in the order of the new task's form, with
     * a task's statuses only. Nullable fields emptied are cleared; the title is required.
     */
    static ObjectNode editForm(JsonNode patch) {
        ObjectNode form = patch.deepCopy();
        form.put("title", "Edit task");
        ObjectNode properties = form.putObject("properties");
        for (String name : List.of("title", "description", "status", "priority", "project_id", "cycle_id",
                "assignee_id", "due_at", "start_date", "parent_id", "estimate_hours")) {
            ObjectNode property = patch.path("properties").get(name).deepCopy();
            if (TITLES.containsKey(name)) property.put("title", TITLES.get(name));
            properties.set(name, property);
        }
        var statuses = properties.withObject("status").putArray("enum");
        IssueKind.TASK.statuses.forEach(statuses::add);
        readable(properties);
        // A title is one line, and a task keeps one: emptied, it is asked for again rather than left as it was.
        properties.withObject("title").put("x-input", "text");
        form.putArray("required").add("title");
        return form;
    }
}
