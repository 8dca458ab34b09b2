package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.FormView.Choice;
import dev.lnp.api.pages.PageCall;
import dev.lnp.plugins.projects.api.ProjectDirectory;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The records a task's form chooses from instead of ids to type: the workspace's projects, the open cycles (by
 * project), the members (the signed-in person first) and the other tasks as a parent. The choices help; what is
 * posted is still checked by {@link IssueService} as the API checks it.
 */
final class TaskChoices {

    /** Records a choice lists; a workspace with more reaches the others through the API. */
    static final int MAX_CHOICES = 200;

    private final IssueService issues;
    private final Supplier<ProjectDirectory> projects;

    TaskChoices(IssueService issues, Supplier<ProjectDirectory> projects) {
        this.issues = issues;
        this.projects = projects;
    }

    /** {@code form} with its project, cycle, assignee and parent fields as choices; {@code task} is the one edited. */
    FormView offer(PageCall call, FormView form, ObjectNode task) {
        ProjectDirectory directory = projects.get();
        List<Choice> projectChoices = new ArrayList<>(List.of(new Choice("", "No project")));
        directory.projects(call.tx().handle(), call.workspaceId(), MAX_CHOICES)
                .forEach(p -> projectChoices.add(new Choice(p.id().toString(), p.name())));
        List<Choice> cycleChoices = new ArrayList<>(List.of(new Choice("", "No cycle")));
        directory.openCycles(call.tx().handle(), call.workspaceId(), MAX_CHOICES)
                .forEach(c -> cycleChoices.add(new Choice(c.id().toString(), c.projectName() + ": " + c.name())));
        // A task planned into a cycle since completed keeps it: that cycle is offered too, by its name.
        String current = form.values().path("cycle_id").asText("");
        if (!current.isEmpty() && cycleChoices.stream().noneMatch(c -> c.value().equals(current))) {
            try {
                directory.cycle(call.tx().handle(), call.workspaceId(), UUID.fromString(current)).ifPresent(c ->
                        cycleChoices.add(new Choice(c.id().toString(), c.projectName() + ": " + c.name()
                                + " (completed)")));
            } catch (IllegalArgumentException notAnId) {
                // shown as typed, next to the refusal
            }
        }
        List<Choice> parents = new ArrayList<>(List.of(new Choice("", "No parent")));
        var tasks = issues.list(call.tx(), new IssueFilter(IssueKind.TASK, null, List.of(), null, null, List.of(),
                List.of(), null, IssueOrder.UPDATED_AT_DESC), new PageRequest(1, MAX_CHOICES));
        String self = task == null ? "" : task.path("id").asText("");
        tasks.items().stream().filter(t -> !t.get("id").asText().equals(self))
                .forEach(t -> parents.add(new Choice(t.get("id").asText(), t.get("title").asText())));
        return form.withChoices("project_id", projectChoices).withChoices("cycle_id", cycleChoices)
                .withChoices("assignee_id", PeopleOnPages.assignees(call)).withChoices("parent_id", parents);
    }
}
