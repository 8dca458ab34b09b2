package dev.lnp.plugins.projects.api;

import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * The part of the issues plugin that planning needs, declared here because issues depends on projects and not
 * the other way round. The issues plugin provides an implementation; without it, allocations cannot name an
 * issue.
 */
public interface IssueDirectory {

    /** A live task or ticket of the workspace. */
    Optional<IssueSummary> find(Handle handle, UUID workspaceId, UUID issueId);

    /** @param projectId the issue's project, or null when it has none */
    record IssueSummary(UUID id, String kind, UUID projectId) {
    }
}
