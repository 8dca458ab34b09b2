package dev.lnp.plugins.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A project's deal_id names a CRM deal of its workspace (checked through the CRM's DealDirectory service) and its
 * lead_user_id a person of its workspace; anything else is 422 naming the field, on create and PATCH, over REST
 * and MCP, and an id of another workspace gets exactly the answer an unknown id gets.
 */
@PlatformTest(plugins = {"projects", "crm"})
class ProjectReferencesTest {

    private static UUID ws;
    private static String key;
    private static UUID deal;
    private static UUID theirDeal;
    private static UUID lead;
    private static UUID theirUser;

    @BeforeAll
    static void setUp(TestPlatform platform) {
        ws = platform.createWorkspace("refs");
        UUID other = platform.createWorkspace("refs other");
        key = platform.key(ws, "projects.read", "projects.write", "deals.read", "deals.write");
        String otherKey = platform.key(other, "deals.write");
        deal = created(platform.post("/api/v1/crm/deals", key, "{\"title\": \"Ours\"}"));
        theirDeal = created(platform.post("/api/v1/crm/deals", otherKey, "{\"title\": \"Theirs\"}"));
        lead = platform.workspaces().addUser(ws, "lead-" + UUID.randomUUID() + "@example.com", "member");
        theirUser = platform.workspaces().addUser(other, "them-" + UUID.randomUUID() + "@example.com", "member");
    }

    private static UUID created(TestResponse response) {
        assertEquals(201, response.status(), response.body());
        return UUID.fromString(response.data().path("id").asText());
    }

    /** The problem without what differs per request. */
    private static ObjectNode shape(TestResponse response) {
        ObjectNode body = (ObjectNode) response.json().deepCopy();
        body.remove("request_id");
        return body;
    }

    @Test
    void aDealAndALeadOfTheWorkspaceAreStored(TestPlatform platform) {
        var response = platform.post("/api/v1/projects", key,
                "{\"name\": \"Linked\", \"deal_id\": \"" + deal + "\", \"lead_user_id\": \"" + lead + "\"}");
        assertEquals(201, response.status(), response.body());
        assertEquals(deal.toString(), response.data().path("deal_id").asText());
        assertEquals(lead.toString(), response.data().path("lead_user_id").asText());
        String id = response.data().path("id").asText();
        var cleared = platform.patch("/api/v1/projects/" + id, key, "{\"deal_id\": null, \"lead_user_id\": null}");
        assertEquals(200, cleared.status(), cleared.body());
        assertTrue(cleared.data().path("deal_id").isNull());
    }

    @Test
    void aDealOfAnotherWorkspaceIsRefusedLikeAMissingOneOnCreateAndPatch(TestPlatform platform) {
        TestResponse theirs = platform.post("/api/v1/projects", key,
                "{\"name\": \"x\", \"deal_id\": \"" + theirDeal + "\"}");
        TestResponse missing = platform.post("/api/v1/projects", key,
                "{\"name\": \"x\", \"deal_id\": \"" + UUID.randomUUID() + "\"}");
        assertEquals(422, theirs.status(), theirs.body());
        assertEquals("/deal_id", theirs.json().path("errors").path(0).path("pointer").asText());
        assertEquals(shape(missing), shape(theirs));

        String project = created(platform.post("/api/v1/projects", key, "{\"name\": \"patched\"}")).toString();
        TestResponse patchTheirs = platform.patch("/api/v1/projects/" + project, key,
                "{\"deal_id\": \"" + theirDeal + "\"}");
        assertEquals(422, patchTheirs.status(), patchTheirs.body());
        assertEquals(shape(missing), shape(patchTheirs));
        assertTrue(platform.get("/api/v1/projects/" + project, key).data().path("deal_id").isNull(),
                "nothing stored");
    }

    @Test
    void aLeadWhoIsNoPersonOfTheWorkspaceIsRefusedLikeAMissingOne(TestPlatform platform) {
        TestResponse theirs = platform.post("/api/v1/projects", key,
                "{\"name\": \"x\", \"lead_user_id\": \"" + theirUser + "\"}");
        TestResponse missing = platform.post("/api/v1/projects", key,
                "{\"name\": \"x\", \"lead_user_id\": \"" + UUID.randomUUID() + "\"}");
        assertEquals(422, theirs.status(), theirs.body());
        assertEquals("/lead_user_id", theirs.json().path("errors").path(0).path("pointer").asText());
        assertEquals(shape(missing), shape(theirs));
        String project = created(platform.post("/api/v1/projects", key, "{\"name\": \"lead\"}")).toString();
        TestResponse patch = platform.patch("/api/v1/projects/" + project, key,
                "{\"lead_user_id\": \"" + theirUser + "\"}");
        assertEquals(shape(missing), shape(patch));
    }

    @Test
    void theMcpToolsShareTheChecks(TestPlatform platform) {
        ApiProblem create = assertThrows(ApiProblem.class, () -> platform.callTool(key, "projects_create",
                "{\"name\": \"x\", \"deal_id\": \"" + theirDeal + "\"}"));
        assertEquals(422, create.status());
        assertEquals("/deal_id", create.errors().get(0).pointer());
        String project = created(platform.post("/api/v1/projects", key, "{\"name\": \"tool\"}")).toString();
        ApiProblem update = assertThrows(ApiProblem.class, () -> platform.callTool(key, "projects_update",
                "{\"id\": \"" + project + "\", \"lead_user_id\": \"" + theirUser + "\"}"));
        assertEquals("/lead_user_id", update.errors().get(0).pointer());
        var ok = platform.callTool(key, "projects_update", "{\"id\": \"" + project + "\", \"deal_id\": \"" + deal
                + "\"}");
        assertEquals(deal.toString(), Json.mapper().valueToTree(ok.data()).path("deal_id").asText());
    }
}
