package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.workspace.Principal;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.Listing;
import dev.lnp.api.http.PageRequest;
import java.util.Map;
import java.util.UUID;

/** Comments on tasks and tickets alike; a soft-deleted task takes no comments and shows none. */
final class CommentService {

    private final IssueService issues;
    private final CommentRepository comments;

    CommentService(IssueService issues, CommentRepository comments) {
        this.issues = issues;
        this.comments = comments;
    }

    Listing<ObjectNode> list(WorkspaceTx tx, UUID issueId, PageRequest page) {
        IssueKind kind = issues.ref(tx, issueId).kind();
        long total = comments.count(tx.handle(), tx.workspaceId(), kind, issueId);
        return Listing.of(comments.list(tx.handle(), tx.workspaceId(), kind, issueId, page.limit(), page.offset()),
                page, total);
    }

    /**
     * The author is whoever the key acts for: the delegated user, else the connection's service identity. An
     * internal note is published like any comment (webhooks and members see it, with {@code internal: true});
     * whoever relays comments to a customer leaves it out.
     */
    ObjectNode add(WorkspaceTx tx, Principal principal, UUID issueId, JsonNode body) {
        return add(tx, principal.actorId(), principal.delegatedUserId().isPresent() ? "user" : "connection", issueId,
                body);
    }

    /** A comment written in the workspace application: its author is the signed-in member. */
    ObjectNode addAsMember(WorkspaceTx tx, UUID userId, UUID issueId, JsonNode body) {
        return add(tx, userId, "user", issueId, body);
    }

    private ObjectNode add(WorkspaceTx tx, UUID authorId, String authorType, UUID issueId, JsonNode body) {
        IssueKind kind = issues.ref(tx, issueId).kind();
        ObjectNode comment = comments.insert(tx.handle(), tx.workspaceId(), kind, issueId,
                body.get("body").asText(), body.path("internal").asBoolean(false), authorId, authorType);
        tx.events().publish(IssueEvents.COMMENT_CREATED, comment);
        return comment;
    }
}
