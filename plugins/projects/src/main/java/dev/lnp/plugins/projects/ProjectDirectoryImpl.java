package dev.lnp.plugins.projects;

import dev.lnp.plugins.projects.api.ProjectDirectory;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** The projects lookups offered to other plugins, on the caller's handle. */
final class ProjectDirectoryImpl implements ProjectDirectory {

    private final ProjectRepository projects;
    private final CycleRepository cycles;

    ProjectDirectoryImpl(ProjectRepository projects, CycleRepository cycles) {
        this.projects = projects;
        this.cycles = cycles;
    }

    @Override
    public boolean exists(Handle handle, UUID workspaceId, UUID projectId) {
        return projects.exists(handle, workspaceId, projectId);
    }

    @Override
    public boolean cycleBelongs(Handle handle, UUID workspaceId, UUID projectId, UUID cycleId) {
        return cycles.projectOf(handle, workspaceId, cycleId).filter(projectId::equals).isPresent();
    }

    @Override
    public Optional<UUID> projectOfCycle(Handle handle, UUID workspaceId, UUID cycleId) {
        return cycles.projectOf(handle, workspaceId, cycleId);
    }

    @Override
    public List<OpenCycle> openCycles(Handle handle, UUID workspaceId, int limit) {
        return cycles.open(handle, workspaceId, limit);
    }

    @Override
    public List<ProjectName> projects(Handle handle, UUID workspaceId, int limit) {
        return projects.names(handle, workspaceId, limit);
    }

    @Override
    public Optional<OpenCycle> cycle(Handle handle, UUID workspaceId, UUID cycleId) {
        return cycles.named(handle, workspaceId, cycleId);
    }
}
