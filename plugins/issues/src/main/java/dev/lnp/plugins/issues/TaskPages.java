package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.pages.BoardView;
import dev.lnp.api.pages.BoardView.Card;
import dev.lnp.api.pages.BoardView.Lane;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.Filter;
import dev.lnp.api.pages.Filter.Choice;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageView;
import dev.lnp.plugins.projects.api.ProjectDirectory;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Project tasks in the workspace application: the task list (search, status, "mine", the API's orders), the task
 * board by status (moving a card is the API's change of the status), a task's page with its sub-tasks and comments,
 * and the form for a new task. Everything goes through {@link IssueService} and {@link CommentService}, as the API
 * and the MCP tools do, so the same checks, events and audit apply.
 */
final class TaskPages {

    static final String LIST = "/app/projects/tasks";
    static final String BOARD = "/app/projects/board";
    /** Cards a lane shows, the most recently changed first. */
    static final int CARDS_PER_LANE = 50;

    private final IssueService issues;
    private final CommentService comments;
    private final IssueSchemas schemas;
    private final ObjectNode taskForm;
    private final JsonNode taskMove;
    private final TaskBulkPages bulk;
    private final TaskChoices choices;
    private final java.util.function.Supplier<ProjectDirectory> projects;

    TaskPages(IssueService issues, CommentService comments, IssueSchemas schemas, TaskBulkPages bulk,
            TaskChoices choices, java.util.function.Supplier<ProjectDirectory> projects) {
        this.issues = issues;
        this.comments = comments;
        this.schemas = schemas;
        this.bulk = bulk;
        this.choices = choices;
        this.projects = projects;
        this.taskForm = taskForm(schemas.issueCreate);
        this.taskMove = taskMove();
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(LIST).scope(IssueScopes.READ).nav("Projects", "Tasks")
                        .liveOn("issues.task.*").renderer(this::list),
                PageRoute.view(BOARD).scope(IssueScopes.READ).nav("Projects", "Task board")
                        .liveOn("issues.task.*").renderer(this::board),
                PageRoute.view(LIST + "/new").scope(IssueScopes.WRITE).renderer(call -> choices.offer(call,
                        new FormView("New task", taskForm, newTask(call), "Create task", LIST), null)),
                PageRoute.action(LIST + "/new").scope(IssueScopes.WRITE).form(taskForm)
                        .action((call, values) -> {
                            ObjectNode task = issues.create(call.tx(), call.userId(), values.deepCopy().put("kind", "task"));
                            return PageOutcome.goTo(LIST + "/" + task.get("id").asText(),
                                    "Task " + task.get("title").asText() + " created.");
                        }),
                PageRoute.view(LIST + "/{id}").scope(IssueScopes.READ).renderer(this::detail),
                PageRoute.action(LIST + "/{id}/move").scope(IssueScopes.WRITE).form(taskMove)
                        .action((call, values) -> {
                            ObjectNode task = issues.update(call.tx(), call.pathId("id"), values);
                            return PageOutcome.goTo(BOARD + back(call), "Task " + task.get("title").asText()
                                    + " moved to " + IssueLabels.status(task.get("status").asText()) + ".");
                        }));
    }

    private PageView list(PageCall call) {
        var filter = new IssueFilter(IssueKind.TASK, uuid(call, "project_id"), call.queryAll("status"),
                call.query("search").orElse(null), uuid(call, "cycle_id"),
                call.query("mine").isPresent() ? List.of(call.userId()) : List.of(), List.of(), null,
                order(call.query("sort").orElse("")));
        // One row more than the page says whether another follows: counting 100,000 tasks took most of the page's time.
        var page = issues.rows(call.tx(), filter, call.page());
        List<Choice> statuses = IssueLabels.statuses(IssueKind.TASK.statuses);
        ListView view = new ListView("Tasks", List.of(
                Column.of("Title", "title").linkedTo(LIST + "/{id}").sortable("title"),
                Column.of("Status", "status_label"),
                Column.of("Priority", "priority_label").sortable("priority"),
                Column.of("Due", "due_at").sortable("due_at"),
                Column.of("Updated", "updated_at").sortable("updated_at")),
                List.of(Filter.search("search", "Search"), Filter.anyOf("status", "Status", statuses),
                        Filter.anyOf("mine", "Assigned", List.of(new Choice("1", "To me")))),
                page.items(), page.hasMore(), List.of(Link.to("Task board", BOARD)),
                "No tasks match. Clear the filters, or create one.");
        return call.may(IssueScopes.WRITE)
                ? view.actions(Link.to("New task", LIST + "/new"), Link.to("Task board", BOARD))
                        .selectable(TaskBulkPages.FIELD, TaskBulkPages.ACTION + TaskBulkPages.listQuery(call),
                                bulk.selectionForm(call))
                : view;
    }

    /** The order a sortable heading asks for, in the API's own {@code order_by} terms; unknown ones are the default. */
    private static IssueOrder order(String sort) {
        return IssueOrder.keys().contains(sort) ? IssueOrder.of(sort) : IssueOrder.CREATED_AT_DESC;
    }

    private PageView board(PageCall call) {
        UUID project = uuid(call, "project_id");
        UUID cycle = uuid(call, "cycle_id");
        boolean mayMove = call.may(IssueScopes.WRITE);
        List<Lane> lanes = new ArrayList<>();
        List<Card> cards = new ArrayList<>();
        for (String status : IssueKind.TASK.statuses) {
            var filter = new IssueFilter(IssueKind.TASK, project, List.of(status), null, cycle, List.of(), List.of(),
                    null, IssueOrder.UPDATED_AT_DESC);
            var page = issues.list(call.tx(), filter, new PageRequest(1, CARDS_PER_LANE));
            long total = page.page().total();
            lanes.add(new Lane(status, IssueLabels.status(status), total + (total == 1 ? " task" : " tasks")));
            for (ObjectNode task : page.items()) {
                String id = task.get("id").asText();
                cards.add(new Card(id, status, task.get("title").asText(), subtitle(task), LIST + "/" + id,
                        mayMove ? LIST + "/" + id + "/move" + scopeOf(project, cycle) : null));
            }
        }
        List<Link> actions = new ArrayList<>(List.of(Link.to("Task list", LIST)));
        if (mayMove) actions.add(0, Link.to("New task", LIST + "/new" + scopeOf(project, cycle)));
        return new BoardView("Task board", "status", lanes, cards, actions);
    }

    private PageView detail(PageCall call) {
        UUID id = call.pathId("id");
        if (issues.ref(call.tx(), id).kind() != IssueKind.TASK) throw IssueService.notFound();
        ObjectNode task = issues.get(call.tx(), id);
        List<Field> fields = new ArrayList<>();
        for (String name : List.of("status", "priority", "description", "project_id", "cycle_id", "assignee_id",
                "due_at", "estimate_hours", "created_at", "updated_at")) {
            JsonNode value = task.get(name);
            if (value != null && !value.isNull() && !value.asText().isEmpty()) {
                fields.add(new Field(label(name), shown(call, name, value)));
            }
        }
        var subTasks = issues.list(call.tx(), new IssueFilter(IssueKind.TASK, null, List.of(), null, null, List.of(),
                List.of(), id, IssueOrder.CREATED_AT), new PageRequest(1, 50));
        var discussion = comments.list(call.tx(), id, new PageRequest(1, 100));
        List<ObjectNode> commentRows = discussion.items().stream().map(c -> c.deepCopy()
                .put("when", c.path("created_at").asText())
                .put("from", "connection".equals(c.path("author_type").asText()) ? "API connection"
                        : PeopleOnPages.name(call, c.get("author_id"), "—"))).toList();
        List<ListView> related = new ArrayList<>();
        if (task.hasNonNull("parent_id")) {
            related.add(ListView.of("Parent task", List.of(Column.of("Title", "title").linkedTo(LIST + "/{id}"),
                    Column.of("Status", "status_label")), List.of(IssueLabels.row(parent(call, task))), false));
        }
        related.add(ListView.of("Sub-tasks", List.of(Column.of("Title", "title").linkedTo(LIST + "/{id}"),
                Column.of("Status", "status_label")), subTasks.items().stream().map(IssueLabels::row).toList(), false)
                .emptyText("No sub-tasks."));
        related.add(ListView.of("Comments", List.of(Column.of("From", "from"), Column.of("Comment", "body"),
                        Column.of("When", "when")),
                commentRows, false).emptyText("No comments yet."));
        DetailView view = new DetailView(task.get("title").asText(), fields, related, List.of());
        String title = task.get("title").asText();
        // The comment is written under the comments; its own page (/comments/new) stays for links made before.
        return call.may(IssueScopes.WRITE)
                ? view.actions(Link.to("Edit", LIST + "/" + id + "/edit"),
                        Link.to("New sub-task", LIST + "/new?parent_id=" + id
                                + (task.hasNonNull("project_id") ? "&project_id=" + task.get("project_id").asText() : "")
                                + (task.hasNonNull("cycle_id") ? "&cycle_id=" + task.get("cycle_id").asText() : "")),
                        Link.post("Delete", LIST + "/" + id + "/delete", "Delete the task " + title
                                + ". Its sub-tasks and comments stay; it leaves the lists and the board."))
                        .withForm(LIST + "/" + id + "/comments/new", new FormView("Add a comment",
                                TicketForms.taskComment(schemas.commentCreate), Json.object(), "Add comment", null))
                : view;
    }

    /** A task's field in words: people, projects and cycles by name rather than by id. */
    private String shown(PageCall call, String name, JsonNode value) {
        try {
            return switch (name) {
                case "assignee_id" -> PeopleOnPages.name(call, value, "Nobody");
                case "project_id" -> projects.get().projects(call.tx().handle(), call.workspaceId(),
                                TaskChoices.MAX_CHOICES).stream().filter(p -> p.id().toString().equals(value.asText()))
                        .map(ProjectDirectory.ProjectName::name).findFirst().orElse(value.asText());
                case "cycle_id" -> projects.get().cycle(call.tx().handle(), call.workspaceId(),
                                java.util.UUID.fromString(value.asText()))
                        .map(c -> c.projectName() + ": " + c.name()).orElse(value.asText());
                case "status" -> IssueLabels.status(value.asText());
                case "priority" -> IssueLabels.priority(value.asText());
                default -> value.asText();
            };
        } catch (IllegalArgumentException notAnId) {
            return value.asText();
        }
    }

    /** The parent's title and status; a parent since deleted is named so rather than linked to a missing page. */
    private ObjectNode parent(PageCall call, ObjectNode task) {
        UUID parent = UUID.fromString(task.get("parent_id").asText());
        try {
            return issues.get(call.tx(), parent);
        } catch (dev.lnp.api.http.ApiProblem gone) {
            if (gone.status() != 404) throw gone;
            return Json.object().put("id", parent.toString()).put("title", "(deleted)").put("status", "—");
        }
    }

    /** The task form: the API's create fields a person fills in; the kind is always {@code task}. */
    private static ObjectNode taskForm(JsonNode create) {
        ObjectNode form = create.deepCopy();
        form.put("title", "New task");
        ObjectNode properties = form.putObject("properties");
        for (String name : List.of("title", "description", "status", "priority", "project_id", "cycle_id",
                "assignee_id", "due_at", "parent_id", "estimate_hours")) {
            properties.set(name, create.path("properties").get(name).deepCopy());
        }
        var statuses = properties.withObject("status").putArray("enum");
        IssueKind.TASK.statuses.forEach(statuses::add);
        TaskEditPages.readable(properties);
        // A title is one line (Enter sends the form); the API allows 500 characters, more than a name's 255.
        properties.withObject("title").put("x-input", "text");
        form.putArray("required").add("title");
        return form;
    }

    private static JsonNode taskMove() {
        ObjectNode schema = Json.object().put("type", "object").put("additionalProperties", false);
        var status = schema.putObject("properties").putObject("status").put("type", "string");
        IssueKind.TASK.statuses.forEach(status.putArray("enum")::add);
        schema.putArray("required").add("status");
        return schema;
    }

    /** A new task's form starts in the project, cycle or parent it was opened from. */
    private static ObjectNode newTask(PageCall call) {
        ObjectNode values = Json.object();
        for (String name : List.of("project_id", "cycle_id", "parent_id")) {
            call.query(name).ifPresent(value -> values.put(name, value));
        }
        return values;
    }

    private static String subtitle(ObjectNode task) {
        List<String> parts = new ArrayList<>();
        if (!"none".equals(task.path("priority").asText("none"))) parts.add(IssueLabels.priority(task.get("priority").asText()));
        if (task.hasNonNull("due_at")) parts.add("due " + task.get("due_at").asText().substring(0, 10));
        return parts.isEmpty() ? null : String.join(" · ", parts);
    }

    private static String scopeOf(UUID project, UUID cycle) {
        List<String> query = new ArrayList<>();
        if (project != null) query.add("project_id=" + project);
        if (cycle != null) query.add("cycle_id=" + cycle);
        return query.isEmpty() ? "" : "?" + String.join("&", query);
    }

    /** The board the move came from, with its project and cycle. */
    private static String back(PageCall call) {
        return scopeOf(uuid(call, "project_id"), uuid(call, "cycle_id"));
    }

    private static UUID uuid(PageCall call, String name) {
        try {
            return call.query(name).map(UUID::fromString).orElse(null);
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
    }

    /** {@code due_at} as "Due at", {@code assignee_id} as "Assignee": a field's name as people read it. */
    static String label(String name) {
        String spaced = name.replace('_', ' ').replace(" id", "");
        return Character.toUpperCase(spaced.charAt(0)) + spaced.substring(1);
    }
}
