package dev.lnp.plugins.projects;

import dev.lnp.api.pages.Chart;
import dev.lnp.api.pages.DashboardView;
import dev.lnp.api.pages.Figure;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageView;
import dev.lnp.plugins.projects.api.IssueDirectory;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The Projects home ({@code /app/projects}): the open tasks of the cycles running today by status, each number
 * leading to those tasks, and each cycle's burn-up, done against scope day by day. The tasks are the issues
 * plugin's: they are counted through its {@link IssueDirectory}, as a closing cycle moves them.
 */
final class ProjectsHome {

    static final String PATH = "/app/projects";
    static final String TASKS = "/app/projects/tasks";
    static final String BOARD = "/app/projects/board";
    /** As many cycles as the charts tell apart by pattern; more running at once are on the projects' pages. */
    static final int CYCLES = 3;
    static final List<String> OPEN_STATUSES = List.of("backlog", "todo", "in_progress", "in_review");
    private static final List<String> STATUS_LABELS = List.of("Backlog", "To do", "In progress", "In review");
    static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMM", Locale.ENGLISH);

    private final Supplier<Optional<IssueDirectory>> issues;

    ProjectsHome(Supplier<Optional<IssueDirectory>> issues) {
        this.issues = issues;
    }

    PageRoute page() {
        return PageRoute.view(PATH).scope(ProjectScopes.PROJECTS_READ).nav("Projects", "Overview")
                .liveOn("issues.task.*", "projects.cycle.*").renderer(this::home);
    }

    private PageView home(PageCall call) {
        List<CurrentCycles.Current> cycles = new CurrentCycles().list(call.tx().handle(), call.workspaceId(), CYCLES);
        Optional<IssueDirectory> directory = issues.get();
        List<Link> actions = List.of(Link.to("Projects", ProjectPages.LIST), Link.to("Tasks", TASKS),
                Link.to("Task board", BOARD));
        if (directory.isEmpty()) {
            return new DashboardView("Projects", List.of(Figure.of("Tasks", "—",
                    "Tasks are counted by the issues module, which this installation does not have.")), List.of(),
                    actions);
        }
        if (cycles.isEmpty()) {
            return new DashboardView("Projects", List.of(Figure.of("Cycles running today", "0",
                    "A cycle whose dates include today, and which is not completed, shows here with its tasks.")),
                    List.of(Chart.of(Chart.Kind.BAR, "Open tasks by status in the current cycles", STATUS_LABELS)
                            .emptyText("No cycle is running today.")), actions);
        }
        List<UUID> ids = cycles.stream().map(CurrentCycles.Current::id).toList();
        Map<UUID, Map<String, Long>> counts = directory.get().openTasksByStatus(call.tx().handle(),
                call.workspaceId(), ids);
        Chart byStatus = Chart.of(Chart.Kind.BAR, "Open tasks by status in the current cycles", STATUS_LABELS)
                .unit("tasks").summary("The tasks not yet done or cancelled of each cycle running today.")
                .emptyText("The cycles running today have no open task.");
        long open = 0;
        for (CurrentCycles.Current cycle : cycles) {
            Map<String, Long> ofCycle = counts.getOrDefault(cycle.id(), Map.of());
            List<Double> values = new ArrayList<>();
            List<String> hrefs = new ArrayList<>();
            for (String status : OPEN_STATUSES) {
                long n = ofCycle.getOrDefault(status, 0L);
                open += n;
                values.add((double) n);
                hrefs.add(TASKS + "?cycle_id=" + cycle.id() + "&status=" + status);
            }
            byStatus = byStatus.series(Chart.Series.of(name(cycle), values).linkedTo(hrefs));
        }
        List<Chart> charts = new ArrayList<>(List.of(byStatus));
        for (CurrentCycles.Current cycle : cycles) {
            charts.add(burnUp(directory.get(), call, cycle));
        }
        String openHref = cycles.size() == 1 ? BOARD + "?cycle_id=" + cycles.getFirst().id() : null;
        return new DashboardView("Projects", List.of(
                new Figure("Open tasks in the current cycles", String.valueOf(open),
                        cycles.size() + (cycles.size() == 1 ? " cycle" : " cycles") + " running today", openHref)),
                charts, actions);
    }

    private static Chart burnUp(IssueDirectory directory, PageCall call, CurrentCycles.Current cycle) {
        // Up to today: the days still to come have nothing to show yet.
        var days = directory.burnUp(call.tx().handle(), call.workspaceId(), cycle.id(), cycle.start(),
                cycle.today().isBefore(cycle.end()) ? cycle.today() : cycle.end());
        return Chart.of(Chart.Kind.LINE, "Burn-up: " + name(cycle),
                        days.stream().map(d -> DAY.format(d.day())).toList())
                .unit("tasks")
                .summary("Each day from " + DAY.format(cycle.start()) + " to today (the cycle ends "
                        + DAY.format(cycle.end()) + "): the cycle's tasks by then (scope, without cancelled ones) "
                        + "and how many of them were done.")
                .emptyText("The cycle " + cycle.name() + " has no task yet.")
                .series(Chart.Series.of("Scope", days.stream().map(d -> (double) d.scope()).toList()),
                        Chart.Series.of("Done", days.stream().map(d -> (double) d.done()).toList()));
    }

    private static String name(CurrentCycles.Current cycle) {
        return cycle.projectName() + " · " + cycle.name();
    }
}
