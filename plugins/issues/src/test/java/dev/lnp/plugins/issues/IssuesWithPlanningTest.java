package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The two plugins together: planning names issues through IssueDirectory; the MCP tools of issues. */
@PlatformTest(plugins = {"projects", "issues"})
class IssuesWithPlanningTest {

    @Test
    void anAllocationMayNameAnIssueAndTakesItsProject(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "planning");
        UUID project = f.project("p");
        UUID task = f.issue("{\"kind\": \"task\", \"title\": \"t\", \"project_id\": \"" + project + "\"}");
        String base = "{\"user_id\": \"" + UUID.randomUUID() + "\", \"start_date\": \"2025-01-01\","
                + " \"end_date\": \"2025-01-02\", \"percentage\": 20, ";
        var created = platform.post("/api/v1/planning/allocations", f.key(), base + "\"issue_id\": \"" + task + "\"}");
        assertEquals(201, created.status(), created.body());
        assertEquals(project.toString(), created.data().path("project_id").asText());

        var wrongProject = platform.post("/api/v1/planning/allocations", f.key(), base + "\"issue_id\": \"" + task
                + "\", \"project_id\": \"" + f.project("other") + "\"}");
        assertEquals("/issue_id", Fixtures.pointer(wrongProject));
        Fixtures other = Fixtures.workspace(platform, "planning other");
        assertEquals("/issue_id", Fixtures.pointer(platform.post("/api/v1/planning/allocations", f.key(),
                base + "\"issue_id\": \"" + other.task("theirs") + "\"}")));
    }

    @Test
    void toolsShareTheRoutesRules(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "tools");
        var created = platform.callTool(f.key(), "issues_create", "{\"kind\": \"ticket\", \"title\": \"via mcp\"}");
        UUID ticket = UUID.fromString(json(created).get("id").asText());
        assertEquals("ticket", created.entities().get(0).type());
        assertEquals("/labels", assertThrows(ApiProblem.class, () -> platform.callTool(f.key(), "issues_create",
                "{\"kind\": \"task\", \"title\": \"x\", \"labels\": []}")).errors().get(0).pointer());
        assertEquals("/kind", assertThrows(ApiProblem.class, () -> platform.callTool(f.key(), "issues_update",
                "{\"id\": \"" + ticket + "\", \"kind\": \"task\"}")).errors().get(0).pointer());
        var updated = platform.callTool(f.key(), "issues_update", "{\"id\": \"" + ticket + "\", \"status\": \"open\"}");
        assertEquals("open", json(updated).get("status").asText());
        var refused = assertThrows(ApiProblem.class, () -> platform.callTool(f.key(), "issues_delete_task",
                "{\"id\": \"" + ticket + "\"}"));
        assertEquals("ticket_delete_not_supported", refused.code());
        // The comment tool names its item issue_id, as comments do; id is a deprecated alias.
        var comment = platform.callTool(f.key(), "issues_comment", "{\"issue_id\": \"" + ticket
                + "\", \"body\": \"noted\"}");
        assertEquals(ticket.toString(), json(comment).get("issue_id").asText());
        assertEquals("comment", comment.entities().get(0).type());
        platform.callTool(f.key(), "issues_comment", "{\"id\": \"" + ticket + "\", \"body\": \"old name\"}");
        ApiProblem none = assertThrows(ApiProblem.class, () -> platform.callTool(f.key(), "issues_comment",
                "{\"body\": \"to nothing\"}"));
        assertEquals(422, none.status());
        assertEquals("/issue_id", none.errors().get(0).pointer());
        assertEquals("issue_id is required", none.errors().get(0).message());
        ApiProblem both = assertThrows(ApiProblem.class, () -> platform.callTool(f.key(), "issues_comment",
                "{\"issue_id\": \"" + ticket + "\", \"id\": \"" + UUID.randomUUID() + "\", \"body\": \"x\"}"));
        assertEquals("/id", both.errors().get(0).pointer());
        var listed = platform.callTool(f.key(), "issues_list", "{\"kind\": \"ticket\"}");
        assertEquals(ticket.toString(), json(listed).path("items").path(0).path("id").asText());
        // Like the CRM list tools, the list names what it read.
        assertEquals(1, listed.entities().size(), listed.entities().toString());
        assertEquals("ticket", listed.entities().get(0).type());
        assertEquals(ticket, listed.entities().get(0).id());
        assertEquals("read", listed.entities().get(0).action());
        var tasks = platform.callTool(f.key(), "issues_list", "{}");
        assertTrue(!json(tasks).get("items").toString().contains(ticket.toString()));
        var bulk = platform.callTool(f.key(), "issues_bulk_update",
                "{\"issueIds\": [\"" + ticket + "\"], \"patch\": {\"priority\": \"low\"}}");
        assertEquals(1, bulk.entities().size());
        assertEquals(403, assertThrows(ApiProblem.class, () -> platform.callTool(platform.key(f.ws(), "issues.read"),
                "issues_create", "{\"kind\": \"task\", \"title\": \"x\"}")).status());

        var registry = platform.platform().registry();
        assertTrue(registry.tool("issues_list").orElseThrow().descriptor().annotations().readOnly());
        assertTrue(registry.tool("issues_delete_task").orElseThrow().descriptor().annotations().destructive());
        var route = registry.routes().stream().filter(r -> r.spec().path().equals("/api/v1/issues")
                && r.spec().method().name().equals("POST")).findFirst().orElseThrow();
        assertTrue(route.spec().bodySchema() == registry.tool("issues_create").orElseThrow().descriptor().inputSchema());
    }

    /** A tool's data as the MCP surface sends it. */
    private static JsonNode json(ToolResult result) {
        return Json.mapper().valueToTree(result.data());
    }

    @Test
    void eventAliasesResolveToCanonicalNames(TestPlatform platform) {
        var registry = platform.platform().registry();
        assertEquals("issues.task.created", registry.canonicalEvent("issue.created").orElseThrow());
        assertEquals("issues.ticket.updated", registry.canonicalEvent("ticket.updated").orElseThrow());
        assertEquals("projects.project.deleted", registry.canonicalEvent("project.deleted").orElseThrow());
    }
}
