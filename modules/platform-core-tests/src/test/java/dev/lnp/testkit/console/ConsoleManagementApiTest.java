package dev.lnp.testkit.console;

import dev.lnp.testkit.MailCatcher;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The console's JSON routes for a signed-in session: envelope, problem+json, strict bodies, CSRF, roles. */
class ConsoleManagementApiTest {

    private static MailCatcher mail;
    private static TestPlatform platform;

    @BeforeAll
    static void start() {
        mail = new MailCatcher();
        platform = TestPlatform.start("console-management", List.of("probe"), null, mail.platformConfig());
    }

    @AfterAll
    static void stop() {
        platform.close();
        mail.close();
    }

    private static String address(String who) {
        return who + "-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    }

    private static JsonNode json(ConsoleClient.Page page) {
        return Json.parse(page.body());
    }

    @Test
    void membersAndConnectionsOverJson() {
        String email = address("owner");
        UUID workspace = platform.workspaces().create("Json " + email, email).id();
        var client = new ConsoleClient(platform.port()).signIn(mail, email);
        var session = client.json("GET", "/console/api/session", null, null);
        assertEquals(200, session.status(), session.body());
        assertEquals("owner", json(session).path("data").path("role").asText());
        String csrf = json(session).path("data").path("csrf_token").asText();

        var members = client.json("GET", "/console/api/members", null, null);
        assertEquals(200, members.status());
        assertEquals(1, json(members).path("data").size());
        assertEquals(1, json(members).path("pagination").path("total").asInt());

        String invited = address("invited");
        var noToken = client.json("POST", "/console/api/members", "{\"email\":\"" + invited + "\",\"role\":\"member\"}", null);
        assertEquals(403, noToken.status());
        assertTrue(noToken.header("Content-Type").startsWith("application/problem+json"));
        assertEquals("csrf_token_invalid", json(noToken).path("code").asText());

        var unknownField = client.json("POST", "/console/api/members",
                "{\"email\":\"" + invited + "\",\"role\":\"member\",\"admin\":true}", csrf);
        assertEquals(422, unknownField.status(), unknownField.body());
        assertEquals("/admin", json(unknownField).path("errors").get(0).path("pointer").asText());
        var missing = client.json("POST", "/console/api/members", "{\"email\":\"" + invited + "\"}", csrf);
        assertEquals(422, missing.status());
        assertEquals("/role", json(missing).path("errors").get(0).path("pointer").asText());
        assertEquals(400, client.json("POST", "/console/api/members", "{\"email\":", csrf).status());

        var created = client.json("POST", "/console/api/members", "{\"email\":\"" + invited + "\",\"role\":\"member\"}", csrf);
        assertEquals(201, created.status(), created.body());
        String memberId = json(created).path("data").path("id").asText();
        mail.awaitLink(invited, 1);

        var badRole = client.json("PATCH", "/console/api/members/" + memberId, "{\"role\":\"owner\"}", csrf);
        assertEquals(400, badRole.status(), badRole.body());
        var promoted = client.json("PATCH", "/console/api/members/" + memberId, "{\"role\":\"admin\"}", csrf);
        assertEquals(200, promoted.status(), promoted.body());
        assertEquals("admin", json(promoted).path("data").path("role").asText());
        assertEquals(404, client.json("DELETE", "/console/api/members/" + UUID.randomUUID(), null, csrf).status());

        String key = platform.key(workspace, "probe.read");
        var connections = client.json("GET", "/console/api/connections", null, null);
        assertEquals(1, json(connections).path("data").size());
        assertTrue(!connections.body().contains(key));
        String connectionId = json(connections).path("data").get(0).path("id").asText();
        var rotated = client.json("POST", "/console/api/connections/" + connectionId + "/rotate",
                "{\"grace_seconds\":0}", csrf);
        assertEquals(201, rotated.status(), rotated.body());
        String newKey = json(rotated).path("data").path("key").asText();
        assertEquals(401, platform.get("/api/v1/probe/items", key).status());
        var keys = json(client.json("GET", "/console/api/connections", null, null)).path("data").get(0).path("keys");
        assertEquals("retired", keys.get(0).path("state").asText(), "the old key gets 401, and says so");
        assertEquals("active", keys.get(1).path("state").asText());
        assertEquals(200, platform.get("/api/v1/probe/items", newKey).status());
        assertEquals(204, client.json("POST", "/console/api/connections/" + connectionId + "/revoke", null, csrf).status());
        assertEquals(401, platform.get("/api/v1/probe/items", newKey).status());

        var activity = json(client.json("GET", "/console/api/activity", null, null)).path("data");
        assertEquals("connection.revoked", activity.get(0).path("action").asText());
        assertEquals(email, activity.get(0).path("actor_email").asText());

        var transferred = client.json("POST", "/console/api/members/" + memberId + "/transfer-ownership", null, csrf);
        assertEquals(200, transferred.status(), transferred.body());
        String newCsrf = json(transferred).path("data").path("csrf_token").asText();
        assertEquals(403, client.json("POST", "/console/api/members/" + memberId + "/transfer-ownership", null, newCsrf)
                .status(), "now an admin");
    }

    /**
     * The same Content-Type rule as /api/v1: a malformed parameter and a charset other than UTF-8 are 415
     * problems (not a 500, not accepted); a quoted utf-8 charset is fine.
     */
    @Test
    void aBodyIsJsonInUtf8AsOnTheApi() {
        String email = address("types");
        platform.workspaces().create("Types " + email, email);
        var client = new ConsoleClient(platform.port()).signIn(mail, email);
        String csrf = json(client.json("GET", "/console/api/session", null, null)).path("data").path("csrf_token").asText();
        for (String type : List.of("application/json; foo", "application/json; charset=latin1", "text/plain",
                "application/json;")) {
            String invited = address("typed");
            var answer = client.json("POST", "/console/api/members", "{\"email\":\"" + invited
                    + "\",\"role\":\"member\"}", csrf, type);
            assertEquals(415, answer.status(), type + ": " + answer.body());
            assertTrue(answer.header("Content-Type").startsWith("application/problem+json"), type);
            assertEquals("unsupported_media_type", json(answer).path("code").asText(), type);
            assertTrue(!answer.body().contains("Exception"), answer.body());
            int created = platform.jdbi().withHandle(h -> h.createQuery(
                    "SELECT count(*) FROM lnp_core.users WHERE email = :e").bind("e", invited).mapTo(Integer.class)
                    .one());
            assertEquals(0, created, type + " created nobody");
        }
        var accepted = client.json("POST", "/console/api/members", "{\"email\":\"" + address("quoted")
                + "\",\"role\":\"member\"}", csrf, "application/json; charset=\"UTF-8\"");
        assertEquals(201, accepted.status(), accepted.body());
        // A form page with a malformed parameter is read by its media type, never a 500.
        var page = client.get("/console/members");
        var form = client.postRawTyped("/console/members", "csrf=" + page.hidden("csrf") + "&email="
                + address("form") + "&role=member", "application/x-www-form-urlencoded; foo");
        assertEquals(303, form.status(), form.body());
        var notForm = client.postRawTyped("/console/members", "csrf=x", "text/plain; =");
        assertEquals(400, notForm.status(), notForm.body());
    }

    /** As on /api/v1: a malformed id is 400 invalid_path_parameter naming it, a well-formed unknown one 404. */
    @Test
    void aMalformedIdIs400NamingTheParameter() {
        String email = address("malformed");
        platform.workspaces().create("Ids " + email, email);
        var client = new ConsoleClient(platform.port()).signIn(mail, email);
        String csrf = json(client.json("GET", "/console/api/session", null, null)).path("data").path("csrf_token").asText();
        record Call(String method, String path, String body) {
        }
        for (var call : List.of(new Call("PATCH", "/console/api/members/not-a-uuid", "{\"role\":\"admin\"}"),
                new Call("PATCH", "/console/api/members/not-a-uuid", "{\"unknown\":1}"),
                new Call("DELETE", "/console/api/members/not-a-uuid", null),
                new Call("POST", "/console/api/members/12345/transfer-ownership", null),
                new Call("POST", "/console/api/connections/not-a-uuid/rotate", "{\"grace_seconds\":0}"),
                new Call("POST", "/console/api/connections/0d6f3b8e-1c2a-4f5b-9e7d-3a1b2c4d5e6/revoke", null))) {
            var answer = client.json(call.method(), call.path(), call.body(), csrf);
            assertEquals(400, answer.status(), call + ": " + answer.body());
            assertTrue(answer.header("Content-Type").startsWith("application/problem+json"), call.toString());
            assertEquals("invalid_path_parameter", json(answer).path("code").asText(), call.toString());
            assertEquals("{id}", json(answer).path("errors").get(0).path("pointer").asText(), call.toString());
        }
        assertEquals(404, client.json("POST", "/console/api/connections/" + UUID.randomUUID() + "/revoke", null, csrf)
                .status());
        assertEquals(404, client.json("PATCH", "/console/api/members/" + UUID.randomUUID(), "{\"role\":\"admin\"}", csrf)
                .status());
    }

    @Test
    void withoutASessionOrFromAnotherWorkspaceNothingIsReachable() {
        var anonymous = new ConsoleClient(platform.port());
        var refused = anonymous.json("GET", "/console/api/members", null, null);
        assertEquals(401, refused.status());
        assertEquals("not_signed_in", json(refused).path("code").asText());
        assertEquals(404, anonymous.json("GET", "/console/api/nothing-here", null, null).status());

        String alice = address("alice");
        UUID aliceWs = platform.workspaces().create("A " + alice, alice).id();
        String aliceKey = platform.key(aliceWs, "probe.read");
        String connectionId = platform.connections().list(aliceWs).get(0).connectionId().toString();
        String mallory = address("mallory");
        platform.workspaces().create("M " + mallory, mallory);
        var client = new ConsoleClient(platform.port()).signIn(mail, mallory);
        String csrf = json(client.json("GET", "/console/api/session", null, null)).path("data").path("csrf_token").asText();
        assertEquals(404, client.json("POST", "/console/api/connections/" + connectionId + "/revoke", null, csrf).status());
        assertEquals(200, platform.get("/api/v1/probe/items", aliceKey).status());

        String member = address("member");
        platform.workspaces().addUser(aliceWs, member, "member");
        var memberClient = new ConsoleClient(platform.port()).signIn(mail, member);
        String memberCsrf = json(memberClient.json("GET", "/console/api/session", null, null)).path("data")
                .path("csrf_token").asText();
        var denied = memberClient.json("POST", "/console/api/connections/" + connectionId + "/revoke", null, memberCsrf);
        assertEquals(403, denied.status());
        assertEquals("forbidden", json(denied).path("code").asText());
        assertEquals(403, memberClient.json("GET", "/console/api/connections", null, null).status());
        assertEquals(200, memberClient.json("GET", "/console/api/members", null, null).status());
    }
}
