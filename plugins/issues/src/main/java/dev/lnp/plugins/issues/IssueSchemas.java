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
    /** The project's task list takes the same filters, but the path names the project and the kind is task. */
    final List<QueryParam> projectIssuesQuery = issueListQuery.stream()
            .filter(p -> !p.name().equals("kind") && !p.name().equals("project_id")).toList();
    final JsonNode issueListTool = listTool(issueList);
    final JsonNode issuePage = JsonSchemas.pageOutput(issue);
    final JsonNode issueGet = JsonSchemas.idOnly("Get an issue", "the task's or ticket's id");
    final JsonNode taskDelete = JsonSchemas.idOnly("Delete a task", "the task's id");
    final JsonNode commentCreate = load("comment-create.json");
    final JsonNode commentCreateOnIssue = commentOnIssue(commentCreate);
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
     * The list tool's input: the list schema, except that {@code status} also takes one string, as it did before it
     * became repeatable, so a caller that sends {@code "status": "todo"} keeps working.
     */
    private static JsonNode listTool(JsonNode list) {
        ObjectNode schema = list.deepCopy();
        ObjectNode properties = (ObjectNode) schema.get("properties");
        JsonNode many = properties.get("status");
        ObjectNode either = dev.lnp.api.Json.object().put("description", many.path("description").asText());
        ObjectNode array = many.deepCopy();
        array.remove("description");
        either.putArray("anyOf").add(many.get("items").deepCopy()).add(array);
        properties.set("status", either);
        return schema;
    }

    /**
     * The comment tool names its task or ticket {@code issue_id}, as a comment does; {@code id}, the name it had
     * first, is still accepted as a deprecated alias (one of the two is required: {@link IssueTools}).
     */
    private static JsonNode commentOnIssue(JsonNode body) {
        ObjectNode schema = body.deepCopy();
        ObjectNode properties = dev.lnp.api.Json.object();
        properties.set("issue_id", dev.lnp.api.Json.object().put("type", "string").put("format", "uuid")
                .put("description", "the task's or ticket's id (required)"));
        properties.set("id", dev.lnp.api.Json.object().put("type", "string").put("format", "uuid")
                .put("deprecated", true).put("description", "deprecated alias of issue_id; send issue_id"));
        body.path("properties").properties().forEach(e -> properties.set(e.getKey(), e.getValue().deepCopy()));
        schema.set("properties", properties);
        return schema;
    }

    /**
     * PATCH accepts the create fields; null clears an optional field. {@code kind} may be repeated (clients that
     * send the whole item back) but never changed: {@link IssueService#update} compares it with the stored kind.
     */
    private static JsonNode patchSchema(JsonNode create) {
        ObjectNode patch = JsonSchemas.patchOf(create, "Issue update", Set.of("kind", "title", "status", "priority"));
        ((ObjectNode) patch.get("properties").get("kind")).put("description",
                "the item's current kind, accepted unchanged; a different kind is refused (422)");
        // Returned on every issue and set by the bulk patch, so an update takes them too (not a create).
        ObjectNode properties = (ObjectNode) patch.get("properties");
        properties.set("start_date", dev.lnp.api.Json.object().set("type",
                dev.lnp.api.Json.mapper().createArrayNode().add("string").add("null")));
        ((ObjectNode) properties.get("start_date")).put("format", "date");
        properties.set("epic_id", dev.lnp.api.Json.object().set("type",
                dev.lnp.api.Json.mapper().createArrayNode().add("string").add("null")));
        ((ObjectNode) properties.get("epic_id")).put("format", "uuid")
                .put("description", "a task of the workspace (an epic is a task), not the item itself");
        if (patch.get("x-unknown-field-hints") instanceof ObjectNode hints) {
            hints.remove(List.of("start_date", "epic_id"));
        }
        return patch;
    }
}
