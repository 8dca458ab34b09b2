package dev.lnp.plugins.projects.api;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * What other plugins may ask about projects, offered through {@code Registrar.provide} and found through
 * {@code PluginContext.service(ProjectDirectory.class)}. Callers pass their request's handle, so the lookups run
 * in their transaction, under their workspace's row-level security. Soft-deleted projects do not exist here.
 */
public interface ProjectDirectory {

    /** Whether a live (not soft-deleted) project with this id belongs to the workspace. */
    boolean exists(Handle handle, UUID workspaceId, UUID projectId);

    /** Whether the cycle belongs to that project, which is live and of the workspace. */
    boolean cycleBelongs(Handle handle, UUID workspaceId, UUID projectId, UUID cycleId);

    /** The live project a cycle of the workspace belongs to; empty for an unknown cycle. */
    Optional<UUID> projectOfCycle(Handle handle, UUID workspaceId, UUID cycleId);

    /**
     * The cycles not yet completed of the workspace's live projects, by project name and start date, at most
     * {@code limit}: what a person may plan work into.
     */
    List<OpenCycle> openCycles(Handle handle, UUID workspaceId, int limit);

    /** The workspace's live projects by name, at most {@code limit}: what a task may belong to. */
    List<ProjectName> projects(Handle handle, UUID workspaceId, int limit);

    /** A cycle of a live project of the workspace, open or completed; empty for an unknown one. */
    Optional<OpenCycle> cycle(Handle handle, UUID workspaceId, UUID cycleId);

    /** A project as a choice shows it. */
    record ProjectName(UUID id, String name) {
    }

    /** A cycle to plan into, with its project's name to tell cycles of the same name apart. */
    record OpenCycle(UUID id, UUID projectId, String name, String projectName) {
    }
}
