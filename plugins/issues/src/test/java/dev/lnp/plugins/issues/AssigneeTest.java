package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** An assignee must be a user of the caller's workspace, on create, update and bulk update. */
@PlatformTest(plugins = {"projects", "issues"})
class AssigneeTest {

    @Test
    void anAssigneeMustBeAUserOfTheWorkspace(TestPlatform platform) {
        Fixtures mine = Fixtures.workspace(platform, "assign-mine");
        Fixtures theirs = Fixtures.workspace(platform, "assign-theirs");
        UUID member = mine.user();
        UUID stranger = theirs.user();

        var ok = platform.post("/api/v1/issues", mine.key(),
                "{\"kind\":\"task\",\"title\":\"t\",\"assignee_id\":\"" + member + "\"}");
        assertEquals(201, ok.status(), ok.body());
        for (UUID bad : new UUID[] {stranger, UUID.randomUUID()}) {
            var refused = platform.post("/api/v1/issues", mine.key(),
                    "{\"kind\":\"task\",\"title\":\"t\",\"assignee_id\":\"" + bad + "\"}");
            assertEquals(422, refused.status(), refused.body());
            assertEquals("/assignee_id", refused.json().path("errors").get(0).path("pointer").asText());
        }
        String id = ok.data().path("id").asText();
        var patch = platform.patch("/api/v1/issues/" + id, mine.key(), "{\"assignee_id\":\"" + stranger + "\"}");
        assertEquals(422, patch.status(), patch.body());
        var bulk = platform.post("/api/v1/issues/bulk-update", mine.key(),
                "{\"issueIds\":[\"" + id + "\"],\"patch\":{\"assignee_id\":\"" + stranger + "\"}}");
        assertEquals(422, bulk.status(), bulk.body());
        assertEquals(member.toString(), platform.get("/api/v1/issues/" + id, mine.key()).data().path("assignee_id").asText());
    }
}
