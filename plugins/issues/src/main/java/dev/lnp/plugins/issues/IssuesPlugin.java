package dev.lnp.plugins.issues;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.PluginContext;
import dev.lnp.api.Registrar;
import dev.lnp.api.pages.PageRegistrar;
import dev.lnp.plugins.projects.api.IssueDirectory;
import dev.lnp.plugins.projects.api.ProjectDirectory;
import java.util.function.Supplier;

/**
 * Project tasks and support tickets behind {@code /api/v1/issues}. This class only wires: routes are in
 * {@link IssueRoutes}, tools in {@link IssueTools}, the rules in the *Service classes, the SQL in the *Repository
 * classes. Projects and cycles are checked through the projects plugin's {@link ProjectDirectory}, looked up per
 * request.
 */
public final class IssuesPlugin implements PlatformPlugin {

    public static final String SCHEMA = "issues";

    @Override
    public void register(Registrar registrar) {
        var schemas = new IssueSchemas();
        PluginContext context = registrar.context();
        Supplier<ProjectDirectory> projects = () -> context.require(ProjectDirectory.class);
        var issueRepository = new IssueRepository();
        var labelRepository = new LabelRepository();
        var issues = new IssueService(issueRepository, projects);
        var comments = new CommentService(issues, new CommentRepository());
        var labels = new LabelService(labelRepository);
        var bulk = new BulkUpdateService(issueRepository, labelRepository, projects);
        registrar.scope(IssueScopes.READ, "Read tasks, tickets, comments and labels")
                .scope(IssueScopes.WRITE, "Create and update tasks and tickets, comment, bulk-update, delete tasks")
                .migrations(SCHEMA)
                .provide(IssueDirectory.class, new IssueDirectoryImpl(issueRepository));
        new IssueRoutes(issues, comments, labels, bulk, schemas).routes().forEach(registrar::route);
        IssueEvents.types(schemas).forEach(registrar::event);
        new IssueTools(issues, comments, labels, bulk, schemas).tools().forEach(registrar::tool);
        var taskBulk = new TaskBulkPages(issues, labels, bulk, projects);
        var taskChoices = new TaskChoices(issues, projects);
        PageRegistrar pages = PageRegistrar.of(registrar);
        new TaskPages(issues, comments, schemas, taskBulk, taskChoices, projects).pages().forEach(pages::page);
        new TaskEditPages(issues, comments, schemas, taskChoices).pages().forEach(pages::page);
        taskBulk.pages().forEach(pages::page);
        // The Support home before the inbox: the first of the Support entries, where people start.
        pages.page(new SupportHome().page());
        new TicketPages(issues, comments, schemas).pages().forEach(pages::page);
        IssueSearch.all().forEach(pages::search);
    }

    /** The projects plugin is a dependency: refuse to start without its directory rather than fail per request. */
    @Override
    public void start(PluginContext context) {
        context.service(ProjectDirectory.class).orElseThrow(() -> new IllegalStateException(
                "The issues plugin needs the projects plugin's ProjectDirectory; is the projects plugin enabled?"));
    }
}
