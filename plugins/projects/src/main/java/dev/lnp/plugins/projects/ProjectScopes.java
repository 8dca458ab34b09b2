package dev.lnp.plugins.projects;

/** The scopes the projects plugin declares; routes and tools name them only through these constants. */
final class ProjectScopes {

    static final String PROJECTS_READ = "projects.read";
    static final String PROJECTS_WRITE = "projects.write";
    static final String PLANNING_READ = "planning.read";
    static final String PLANNING_WRITE = "planning.write";

    private ProjectScopes() {
    }
}
