/**
 * Projects, cycles and planning allocations. Exports only its service API: other plugins (issues) look
 * projects and cycles up through {@link dev.lnp.plugins.projects.api.ProjectDirectory}, never through its tables.
 */
module dev.lnp.plugins.projects {
    requires lnp.platform.api;
    requires lnp.platform.pages;

    exports dev.lnp.plugins.projects.api;

    provides dev.lnp.api.PlatformPlugin with dev.lnp.plugins.projects.ProjectsPlugin;
}
