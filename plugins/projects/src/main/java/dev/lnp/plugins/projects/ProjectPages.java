package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.EnumLabels;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageSearch;
import dev.lnp.api.pages.PageView;
import dev.lnp.api.pages.SearchHit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Projects in the workspace application: the list, a project's page with its cycles (each with its task board),
 * and the forms that create a project and a cycle and close a cycle (its open tasks carried to the next one, as
 * {@code POST /api/v1/cycles/{id}/close} does). Through the same services as the API and the MCP tools.
 */
final class ProjectPages {

    static final String LIST = "/app/projects/projects";
    /** The issues plugin's task board, filtered by project or cycle through its query. */
    private static final String BOARD = "/app/projects/board";

    private final ProjectService projects;
    private final CycleService cycles;
    private final CycleClosing closing;
    private final ProjectSchemas schemas;

    ProjectPages(ProjectService projects, CycleService cycles, CycleClosing closing, ProjectSchemas schemas) {
        this.projects = projects;
        this.cycles = cycles;
        this.closing = closing;
        this.schemas = schemas;
    }

    /** The search box's projects: the name contains what was typed, by name, with their status. */
    PageSearch search() {
        return new PageSearch("Projects", ProjectScopes.PROJECTS_READ, (call, text, limit) ->
                projects.named(call.tx(), text, limit).stream()
                        .map(p -> new SearchHit(p.path("name").asText(), status(p.path("status").asText("")),
                                LIST + "/" + p.path("id").asText()))
                        .toList());
    }

    /** {@code planned} as people read it: "Planned". */
    private static String status(String key) {
        return key.isEmpty() ? null : Character.toUpperCase(key.charAt(0)) + key.substring(1);
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(LIST).scope(ProjectScopes.PROJECTS_READ).nav("Projects", "Projects")
                        .liveOn("projects.*").renderer(this::list),
                PageRoute.view(LIST + "/new").scope(ProjectScopes.PROJECTS_WRITE).renderer(call ->
                        new FormView("New project", schemas.projectCreate, Json.object(), "Create project", LIST)),
                PageRoute.action(LIST + "/new").scope(ProjectScopes.PROJECTS_WRITE).form(schemas.projectCreate)
                        .action((call, values) -> {
                            ObjectNode project = projects.create(call.tx(), values);
                            return PageOutcome.goTo(LIST + "/" + project.get("id").asText(),
                                    "Project " + project.get("name").asText() + " created.");
                        }),
                PageRoute.view(LIST + "/{id}").scope(ProjectScopes.PROJECTS_READ).renderer(this::detail),
                PageRoute.view(LIST + "/{id}/cycles/new").scope(ProjectScopes.PROJECTS_WRITE).renderer(call ->
                        new FormView("New cycle", schemas.cycleCreate, Json.object(), "Create cycle",
                                LIST + "/" + call.pathId("id"))),
                PageRoute.action(LIST + "/{id}/cycles/new").scope(ProjectScopes.PROJECTS_WRITE).form(schemas.cycleCreate)
                        .action((call, values) -> {
                            UUID project = call.pathId("id");
                            ObjectNode cycle = cycles.create(call.tx(), project, values);
                            return PageOutcome.goTo(LIST + "/" + project, "Cycle " + cycle.get("name").asText() + " created.");
                        }),
                PageRoute.action(LIST + "/{id}/cycles/{cycle}/close").scope(ProjectScopes.PROJECTS_WRITE)
                        .button().action((call, values) -> {
                            UUID project = call.pathId("id");
                            ObjectNode cycle = cycles.get(call.tx(), call.pathId("cycle"));
                            if (!cycle.get("project_id").asText().equals(project.toString())) {
                                throw ApiProblem.notFound("Cycle");
                            }
                            ObjectNode closed = close(call, cycle);
                            int moved = closed.path("moved").path("task").asInt() + closed.path("moved").path("ticket").asInt();
                            return PageOutcome.goTo(LIST + "/" + project, "Cycle "
                                    + closed.path("cycle").path("name").asText() + " closed"
                                    + (moved == 0 ? "." : "; " + moved + " open item" + (moved == 1 ? "" : "s")
                                            + " moved to the next cycle."));
                        }));
    }

    /**
     * The API's close, its open items carried to the project's next cycle. Without one, the refusal says what to do
     * on this page (create the next cycle) rather than which body to send the API.
     */
    private ObjectNode close(PageCall call, ObjectNode cycle) {
        try {
            return closing.close(call.tx(), UUID.fromString(cycle.get("id").asText()), Json.object());
        } catch (ApiProblem refused) {
            if (!"no_next_cycle".equals(refused.code())) throw refused;
            throw ApiProblem.conflict("no_next_cycle", "Cycle " + cycle.get("name").asText() + " was not closed: it "
                    + "still has open tasks, and the project has no later cycle to move them to. Create the next "
                    + "cycle first (New cycle), then close this one; or move the open tasks out of the cycle on the "
                    + "task list.");
        }
    }

    private PageView list(PageCall call) {
        var page = projects.list(call.tx(), call.page());
        ListView view = new ListView("Projects", List.of(
                Column.of("Name", "name").linkedTo(LIST + "/{id}"),
                Column.of("Status", "status_label"),
                Column.of("Start", "start_date"),
                Column.of("End", "end_date")), List.of(),
                page.items().stream().map(p -> EnumLabels.labelled(p, schemas.projectCreate)).toList(),
                page.page().hasMore(), List.of(),
                "No projects yet.");
        return call.may(ProjectScopes.PROJECTS_WRITE) ? view.actions(Link.to("New project", LIST + "/new")) : view;
    }

    private PageView detail(PageCall call) {
        UUID id = call.pathId("id");
        ObjectNode project = projects.get(call.tx(), id);
        List<Field> fields = new ArrayList<>();
        project.properties().forEach(entry -> {
            JsonNode value = entry.getValue();
            if (!entry.getKey().equals("id") && !entry.getKey().equals("name") && value.isValueNode()
                    && !value.isNull() && !value.asText().isEmpty()) {
                fields.add(new Field(label(entry.getKey()),
                        EnumLabels.of(schemas.projectCreate, entry.getKey(), value.asText())));
            }
        });
        boolean mayWrite = call.may(ProjectScopes.PROJECTS_WRITE);
        List<ObjectNode> cycleRows = cycles.list(call.tx(), id, new PageRequest(1, 100)).items().stream()
                .map(cycle -> EnumLabels.labelled(cycle, schemas.cycleCreate).put("board", "Task board")).toList();
        List<Link> actions = new ArrayList<>(List.of(Link.to("Task board", BOARD + "?project_id=" + id)));
        if (mayWrite) actions.add(Link.to("New cycle", LIST + "/" + id + "/cycles/new"));
        List<Column> cycleColumns = new ArrayList<>(List.of(Column.of("Cycle", "name"), Column.of("Status", "status_label"),
                Column.of("Start", "start_date"), Column.of("End", "end_date"),
                Column.of("Board", "board").linkedTo(BOARD + "?project_id=" + id + "&cycle_id={id}")));
        DetailView view = new DetailView(project.get("name").asText(), fields, List.of(
                ListView.of("Cycles", cycleColumns, cycleRows, false).emptyText("No cycles yet.")), actions);
        if (mayWrite) {
            List<Link> closes = new ArrayList<>(actions);
            cycleRows.stream().filter(c -> !"completed".equals(c.path("status").asText())).forEach(c -> closes.add(
                    Link.post("Close " + c.get("name").asText(), LIST + "/" + id + "/cycles/" + c.get("id").asText()
                            + "/close", "Close " + c.get("name").asText() + " and move its open tasks to the next cycle.")));
            view = new DetailView(view.title(), view.fields(), view.related(), closes);
        }
        return view;
    }

    private static String label(String name) {
        String spaced = name.replace('_', ' ');
        return Character.toUpperCase(spaced.charAt(0)) + spaced.substring(1);
    }
}
