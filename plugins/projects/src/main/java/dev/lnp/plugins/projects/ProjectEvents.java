package dev.lnp.plugins.projects;

import dev.lnp.api.events.EventType;
import java.util.List;

/** The events the projects plugin emits, with their contract-style aliases. */
final class ProjectEvents {

    static final String PROJECT_CREATED = "projects.project.created";
    static final String PROJECT_UPDATED = "projects.project.updated";
    static final String PROJECT_DELETED = "projects.project.deleted";
    static final String CYCLE_CREATED = "projects.cycle.created";
    static final String CYCLE_UPDATED = "projects.cycle.updated";
    static final String ALLOCATION_CREATED = "planning.allocation.created";
    static final String ALLOCATION_UPDATED = "planning.allocation.updated";
    static final String ALLOCATION_DELETED = "planning.allocation.deleted";

    private ProjectEvents() {
    }

    static List<EventType> types(ProjectSchemas schemas) {
        return List.of(
                new EventType(PROJECT_CREATED, "A project was created", schemas.project, List.of("project.created")),
                new EventType(PROJECT_UPDATED, "A project was updated", schemas.project, List.of("project.updated")),
                new EventType(PROJECT_DELETED, "A project was soft-deleted", schemas.deleted, List.of("project.deleted")),
                new EventType(CYCLE_CREATED, "A cycle was created in a project", schemas.cycle, List.of("cycle.created")),
                new EventType(CYCLE_UPDATED, "A cycle was updated, or closed (status completed)", schemas.cycle,
                        List.of("cycle.updated")),
                new EventType(ALLOCATION_CREATED, "A planning allocation was created", schemas.allocation,
                        List.of("allocation.created")),
                new EventType(ALLOCATION_UPDATED, "A planning allocation was updated", schemas.allocation,
                        List.of("allocation.updated")),
                new EventType(ALLOCATION_DELETED, "A planning allocation was deleted", schemas.deleted,
                        List.of("allocation.deleted")));
    }
}
