package dev.lnp.plugins.issues;

import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.RouteSpec;
import java.util.List;
import java.util.UUID;

/**
 * The REST routes of tasks, tickets, comments and labels, in matching order: literal paths ({@code /labels},
 * {@code /bulk-update}) before {@code /{id}}, which would otherwise take them.
 */
record IssueRoutes(IssueService issues, CommentService comments, LabelService labels, BulkUpdateService bulk,
        IssueSchemas schemas) {

    List<RouteSpec> routes() {
        return List.of(
                RouteSpec.get("/api/v1/issues").scope(IssueScopes.READ).paginated()
                        .query(schemas.issueListQuery.toArray(QueryParam[]::new))
                        .returns(schemas.issue).summary("List tasks (default) or tickets (kind=ticket)")
                        .handler(r -> issues.page(r.tx(), IssueFilter.from(r::query, r::queryAll), r.pageRequest()).response()),
                RouteSpec.post("/api/v1/issues").scope(IssueScopes.WRITE).body(schemas.issueCreate)
                        .returns(schemas.issue).summary("Create a task or a ticket")
                        .handler(r -> ApiResponse.of(issues.create(r.tx(), actor(r), r.body()))),
                RouteSpec.get("/api/v1/issues/labels").scope(IssueScopes.READ).paginated()
                        .returns(schemas.label).summary("List the workspace's labels")
                        .handler(r -> labels.list(r.tx(), r.pageRequest()).response()),
                RouteSpec.post("/api/v1/issues/labels").scope(IssueScopes.WRITE).body(schemas.labelCreate)
                        .returns(schemas.label).summary("Create a label").handler(r -> ApiResponse.of(labels.create(r.tx(), r.body()))),
                RouteSpec.post("/api/v1/issues/bulk-update").scope(IssueScopes.WRITE).body(schemas.bulkUpdate).status(200)
                        .returns(schemas.bulkResult).summary("Apply one patch to up to 500 tasks and tickets, all or nothing")
                        .handler(r -> ApiResponse.of(bulk.apply(r.tx(), r.body()))),
                RouteSpec.get("/api/v1/issues/{id}").scope(IssueScopes.READ)
                        .returns(schemas.issue).summary("One task or ticket").handler(r -> ApiResponse.of(issues.get(r.tx(), r.pathId("id")))),
                RouteSpec.patch("/api/v1/issues/{id}").scope(IssueScopes.WRITE).body(schemas.issuePatch)
                        .returns(schemas.issue).summary("Update a task or ticket (kind may be repeated, never changed)")
                        .handler(r -> ApiResponse.of(issues.update(r.tx(), r.pathId("id"), r.body()))),
                RouteSpec.delete("/api/v1/issues/{id}").scope(IssueScopes.WRITE)
                        .returns(schemas.deleted).summary("Soft-delete a task (tickets: 409 ticket_delete_not_supported)")
                        .handler(r -> ApiResponse.of(issues.delete(r.tx(), r.pathId("id")).toJson())),
                RouteSpec.get("/api/v1/issues/{id}/comments").scope(IssueScopes.READ).paginated()
                        .returns(schemas.comment).summary("Comments of a task or ticket")
                        .handler(r -> comments.list(r.tx(), r.pathId("id"), r.pageRequest()).response()),
                RouteSpec.post("/api/v1/issues/{id}/comments").scope(IssueScopes.WRITE).body(schemas.commentCreate)
                        .returns(schemas.comment).summary("Comment on a task or ticket")
                        .handler(r -> ApiResponse.of(comments.add(r.tx(), r.principal().orElseThrow(),
                                r.pathId("id"), r.body()))),
                RouteSpec.get("/api/v1/projects/{id}/issues").scope(IssueScopes.READ).paginated()
                        .query(schemas.projectIssuesQuery.toArray(QueryParam[]::new))
                        .returns(schemas.issue).summary("The tasks of a project, with the filters and order of the issues list")
                        .handler(r -> issues.projectTasks(r.tx(), r.pathId("id"), IssueFilter.from(r::query,
                                r::queryAll), r.pageRequest()).response()));
    }

    private static UUID actor(ApiRequest request) {
        return request.principal().map(p -> p.actorId()).orElse(null);
    }
}
