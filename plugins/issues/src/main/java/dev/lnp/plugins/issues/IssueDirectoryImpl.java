package dev.lnp.plugins.issues;

import dev.lnp.plugins.projects.api.IssueDirectory;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** Lets planning name a task or ticket without reading this plugin's tables. */
final class IssueDirectoryImpl implements IssueDirectory {

    private final IssueRepository issues;

    IssueDirectoryImpl(IssueRepository issues) {
        this.issues = issues;
    }

    @Override
    public Optional<IssueSummary> find(Handle handle, UUID workspaceId, UUID issueId) {
        return issues.ref(handle, workspaceId, issueId).map(r -> new IssueSummary(r.id(), r.kind().key, r.projectId()));
    }
}
