package dev.lnp.plugins.issues;

import dev.lnp.api.events.EventType;
import java.util.List;

/** The events the issues plugin emits, with their contract-style aliases. */
final class IssueEvents {

    static final String TASK_CREATED = "issues.task.created";
    static final String TASK_UPDATED = "issues.task.updated";
    static final String TASK_DELETED = "issues.task.deleted";
    static final String TICKET_CREATED = "issues.ticket.created";
    static final String TICKET_UPDATED = "issues.ticket.updated";
    static final String COMMENT_CREATED = "issues.comment.created";

    private IssueEvents() {
    }

    static String created(IssueKind kind) {
        return kind == IssueKind.TASK ? TASK_CREATED : TICKET_CREATED;
    }

    static String updated(IssueKind kind) {
        return kind == IssueKind.TASK ? TASK_UPDATED : TICKET_UPDATED;
    }

    static List<EventType> types(IssueSchemas schemas) {
        return List.of(
                new EventType(TASK_CREATED, "A project task was created", schemas.issue, List.of("issue.created")),
                new EventType(TASK_UPDATED, "A project task was updated (also once per task by a bulk update)",
                        schemas.issue, List.of("issue.updated")),
                new EventType(TASK_DELETED, "A project task was soft-deleted", schemas.deleted, List.of("issue.deleted")),
                new EventType(TICKET_CREATED, "A support ticket was created", schemas.issue, List.of("ticket.created")),
                new EventType(TICKET_UPDATED, "A support ticket was updated (also once per ticket by a bulk update)",
                        schemas.issue, List.of("ticket.updated")),
                new EventType(COMMENT_CREATED, "A comment was added to a task or ticket", schemas.comment,
                        List.of("issue.comment.created")));
    }
}
