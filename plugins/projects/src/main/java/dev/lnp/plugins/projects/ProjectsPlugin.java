package dev.lnp.plugins.projects;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.PluginContext;
import dev.lnp.api.Registrar;
import dev.lnp.api.crm.DealDirectory;
import dev.lnp.api.pages.PageRegistrar;
import dev.lnp.plugins.projects.api.IssueDirectory;
import dev.lnp.plugins.projects.api.ProjectDirectory;

/**
 * Projects, their cycles, and planning allocations. This class only wires: routes are in {@link ProjectRoutes},
 * tools in {@link ProjectTools}, the rules in the *Service classes, the SQL in the *Repository classes.
 */
public final class ProjectsPlugin implements PlatformPlugin {

    public static final String SCHEMA = "projects";

    @Override
    public void register(Registrar registrar) {
        var schemas = new ProjectSchemas();
        var projectRepository = new ProjectRepository();
        var cycleRepository = new CycleRepository();
        PluginContext context = registrar.context();
        // The CRM plugin is optional too: deal ids are checked through its service, looked up per request.
        var projects = new ProjectService(projectRepository, () -> context.service(DealDirectory.class));
        var cycles = new CycleService(projectRepository, cycleRepository);
        // The issues plugin is optional: looked up per request, empty when it is not loaded.
        var allocationRepository = new AllocationRepository();
        var allocations = new AllocationService(projectRepository, allocationRepository,
                () -> context.service(IssueDirectory.class));
        var capacity = new CapacityService(allocationRepository, new CapacityRepository());
        var closing = new CycleClosing(cycles, cycleRepository, () -> context.service(IssueDirectory.class));
        registrar.scope(ProjectScopes.PROJECTS_READ, "Read projects and their cycles")
                .scope(ProjectScopes.PROJECTS_WRITE, "Create, update and delete projects; create, update and close cycles")
                .scope(ProjectScopes.PLANNING_READ, "Read planning allocations and capacity")
                .scope(ProjectScopes.PLANNING_WRITE, "Create, update and delete planning allocations; set capacities")
                .migrations(SCHEMA)
                .provide(ProjectDirectory.class, new ProjectDirectoryImpl(projectRepository, cycleRepository));
        new ProjectRoutes(projects, cycles, closing, allocations, capacity, schemas).routes().forEach(registrar::route);
        ProjectEvents.types(schemas).forEach(registrar::event);
        new ProjectTools(projects, cycles, closing, allocations, capacity, schemas).tools().forEach(registrar::tool);
        var projectPages = new ProjectPages(projects, cycles, closing, schemas);
        PageRegistrar pages = PageRegistrar.of(registrar);
        // The home first: the Projects heading's first entry, where people start.
        pages.page(new ProjectsHome(() -> context.service(IssueDirectory.class)).page());
        projectPages.pages().forEach(pages::page);
        pages.search(projectPages.search());
        new CapacityPages(capacity).pages().forEach(pages::page);
        new AllocationPages(allocations, schemas).pages().forEach(pages::page);
    }
}
