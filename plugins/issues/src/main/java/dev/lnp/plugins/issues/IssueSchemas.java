package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.http.QueryParam;
import java.util.List;
import java.util.Set;

/**
 * The JSON Schemas of the issues plugin, loaded once: files under {@code schemas/}, and the variants derived
 * from them by the rules of {@link JsonSchemas} (PATCH from create, tool input with an {@code id}, list output,
 * the deletion result) and {@link QueryParam#fromSchema} (the list's query parameters).
 */
final class IssueSchemas {

    final JsonNode issueCreate = load("issue-create.json");
    final JsonNode issuePatch = patchSchema(issueCreate);
    final JsonNode issueUpdate = JsonSchemas.withId(issuePatch, "the task's or ticket's id");
    final JsonNode issue = load("issue.json");
    final JsonNode issueList = load("issue-list.json");
    final List<QueryParam> issueListQuery = QueryParam.fromSchema(issueList);
    final JsonNode issuePage = JsonSchemas.pageOutput(issue);
    final JsonNode issueGet = JsonSchemas.idOnly("Get an issue", "the task's or ticket's id");
    final JsonNode taskDelete = JsonSchemas.idOnly("Delete a task", "the task's id");
    final JsonNode commentCreate = load("comment-create.json");
    final JsonNode commentCreateOnIssue = JsonSchemas.withId(commentCreate, "the task's or ticket's id");
    final JsonNode comment = load("comment.json");
    final JsonNode labelCreate = load("label-create.json");
    final JsonNode label = load("label.json");
    final JsonNode bulkUpdate = load("bulk-update.json");
    final JsonNode bulkResult = load("bulk-result.json");
    final JsonNode deleted = JsonSchemas.deleted();

    private static JsonNode load(String name) {
        return JsonSchemas.load(IssueSchemas.class, name);
    }

    /**
     * PATCH accepts the create fields; null clears an optional field. {@code kind} may be repeated (clients that
     * send the whole item back) but never changed: {@link IssueService#update} compares it with the stored kind.
     */
    private static JsonNode patchSchema(JsonNode create) {
        ObjectNode patch = JsonSchemas.patchOf(create, "Issue update", Set.of("kind", "title", "status", "priority"));
        ((ObjectNode) patch.get("properties").get("kind")).put("description",
                "the item's current kind, accepted unchanged; a different kind is refused (422)");
        return patch;
    }
}
