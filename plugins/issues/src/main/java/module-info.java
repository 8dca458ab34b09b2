/** Project tasks and support tickets. Reaches projects only through the projects plugin's exported API. */
module dev.lnp.plugins.issues {
    requires lnp.platform.api;
    requires lnp.platform.pages;
    requires dev.lnp.plugins.projects;

    provides dev.lnp.api.PlatformPlugin with dev.lnp.plugins.issues.IssuesPlugin;
}
