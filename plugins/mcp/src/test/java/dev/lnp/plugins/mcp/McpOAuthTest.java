package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The MCP endpoint's OAuth 2.1 authorization server over real HTTP: discovery from the 401, registration, the code
 * flow with PKCE and the person's consent, the token on /api/mcp (and nowhere else), refresh rotation, and every
 * refusal: PKCE missing or plain, a foreign redirect URI or resource, code reuse, refresh reuse, role caps,
 * revocation from the person's page.
 */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"})
class McpOAuthTest {

    private static final String TOOLS = "mcp.use contacts.read contacts.write";

    @Test
    void theEndpointPointsAnUnauthenticatedClientToMetadataThatLeadsToEveryEndpoint(TestPlatform platform) {
        String base = "http://localhost:" + platform.port();
        TestResponse refused = McpFixtures.rpc(platform, null, McpFixtures.LATEST, "tools/list", null);
        assertEquals(401, refused.status());
        String challenge = refused.header("WWW-Authenticate").orElseThrow();
        String metadataUrl = base + "/.well-known/oauth-protected-resource/api/mcp";
        assertEquals("Bearer realm=\"lnp\", resource_metadata=\"" + metadataUrl + "\"", challenge);

        for (String path : List.of("/.well-known/oauth-protected-resource/api/mcp",
                "/.well-known/oauth-protected-resource")) {
            JsonNode resource = platform.get(path, null).json();
            assertEquals(base + "/api/mcp", resource.path("resource").asText());
            assertEquals(base, resource.path("authorization_servers").get(0).asText());
            assertTrue(resource.path("scopes_supported").toString().contains("\"mcp.use\""));
        }
        JsonNode server = platform.get("/.well-known/oauth-authorization-server", null).json();
        assertEquals(base, server.path("issuer").asText());
        assertEquals(base + "/oauth/authorize", server.path("authorization_endpoint").asText());
        assertEquals(base + "/oauth/token", server.path("token_endpoint").asText());
        assertEquals(base + "/oauth/register", server.path("registration_endpoint").asText());
        assertEquals(base + "/oauth/revoke", server.path("revocation_endpoint").asText());
        assertEquals("[\"S256\"]", server.path("code_challenge_methods_supported").toString());
        assertEquals("[\"none\"]", server.path("token_endpoint_auth_methods_supported").toString());

        // Keys keep their challenge on other routes, untouched.
        TestResponse rest = platform.get("/api/v1/projects", null);
        assertEquals("Bearer realm=\"lnp\"", rest.header("WWW-Authenticate").orElseThrow());
    }

    @Test
    void registrationAcceptsHttpsAndLoopbackRedirectsAndRefusesTheRest(TestPlatform platform) {
        for (String good : List.of("https://assistant.example/cb", "http://localhost:33418/callback",
                "http://127.0.0.1/cb", "http://[::1]:8123/cb")) {
            TestResponse ok = register(platform, "{\"client_name\":\"A\",\"redirect_uris\":[\"" + good + "\"]}");
            assertEquals(201, ok.status(), good + ": " + ok.body());
            assertEquals("none", ok.json().path("token_endpoint_auth_method").asText());
        }
        for (String bad : List.of("http://assistant.example/cb", "https://assistant.example/cb#x", "/relative",
                "javascript:alert(1)", "https://user@assistant.example/cb")) {
            TestResponse refused = register(platform, "{\"redirect_uris\":[\"" + bad + "\"]}");
            assertEquals(400, refused.status(), bad);
            assertEquals("invalid_redirect_uri", refused.json().path("error").asText(), bad);
        }
        assertEquals("invalid_redirect_uri", register(platform, "{\"client_name\":\"A\"}").json().path("error").asText());
        assertEquals("invalid_client_metadata", register(platform, "not json").json().path("error").asText());
        assertEquals("invalid_client_metadata", register(platform, "{\"redirect_uris\":[\"https://a.example/cb\"],"
                + "\"token_endpoint_auth_method\":\"client_secret_basic\"}").json().path("error").asText());
        assertEquals("invalid_client_metadata", register(platform, "{\"redirect_uris\":[\"https://a.example/cb\"],"
                + "\"grant_types\":[\"client_credentials\"]}").json().path("error").asText());
    }

    @Test
    void aPersonConsentsAndTheClientListsAndCallsToolsWithTheTokenThenRefreshesWithRotation(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-flow");
        TestPerson owner = platform.person(ws, "owner");
        var client = new OAuthClientFixture(platform);
        JsonNode tokens = client.connect(owner, ws, TOOLS, List.of("contacts.read", "contacts.write"));
        assertEquals("Bearer", tokens.path("token_type").asText());
        assertEquals(600, tokens.path("expires_in").asInt());
        assertEquals("mcp.use contacts.read contacts.write", tokens.path("scope").asText());
        String access = tokens.path("access_token").asText();

        JsonNode listed = McpFixtures.result(McpFixtures.rpc(platform, access, McpFixtures.LATEST, "tools/list", null));
        assertTrue(listed.path("tools").toString().contains("crm_create_contact"), listed.toString());
        assertFalse(listed.path("tools").toString().contains("projects_"), "only the granted scopes' tools");
        JsonNode created = McpFixtures.callTool(platform, access, "crm_create_contact",
                "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\",\"email\":\"ada@example.com\"}");
        assertFalse(created.path("isError").asBoolean(), created.toString());

        // The tool-call audit names the grant's connection, delegated to the person.
        UUID connection = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT connection_id FROM lnp_oauth.grants WHERE workspace_id = :ws").bind("ws", ws)
                .mapTo(UUID.class).one());
        // The audit is written in batches: wait for its row.
        long audited = 0;
        for (int i = 0; i < 50 && audited == 0; i++) {
            audited = platform.jdbi().withHandle(h -> h.createQuery(
                    "SELECT count(*) FROM lnp_core.tool_calls WHERE connection_id = :c AND tool = 'crm_create_contact'")
                    .bind("c", connection).mapTo(Long.class).one());
            sleep(100);
        }
        assertEquals(1L, audited);

        // The token is the MCP endpoint's only: on the REST API it is refused.
        assertEquals(401, platform.get("/api/v1/projects", access).status());

        // Refresh: a new pair; the old refresh token reused revokes the whole grant.
        String firstRefresh = tokens.path("refresh_token").asText();
        TestResponse refreshed = client.refresh(firstRefresh);
        assertEquals(200, refreshed.status(), refreshed.body());
        String secondAccess = refreshed.json().path("access_token").asText();
        String secondRefresh = refreshed.json().path("refresh_token").asText();
        assertFalse(secondRefresh.equals(firstRefresh));
        assertEquals(200, McpFixtures.rpc(platform, secondAccess, McpFixtures.LATEST, "tools/list", null).status());

        TestResponse reused = client.refresh(firstRefresh);
        assertEquals(400, reused.status());
        assertEquals("invalid_grant", reused.json().path("error").asText());
        TestResponse afterReuse = McpFixtures.rpc(platform, secondAccess, McpFixtures.LATEST, "tools/list", null);
        assertEquals(401, afterReuse.status());
        assertTrue(afterReuse.header("WWW-Authenticate").orElseThrow().contains("resource_metadata="));
        assertEquals("invalid_grant", client.refresh(secondRefresh).json().path("error").asText());
    }

    @Test
    void theAuthorizationEndpointRefusesWithoutPkceS256AtTheRedirectAndUnknownClientsOnAPage(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-authorize");
        TestPerson owner = platform.person(ws, "owner");
        var client = new OAuthClientFixture(platform);
        assertRedirectError(owner.get(client.authorizePath("code_challenge", null)), "invalid_request");
        assertRedirectError(owner.get(client.authorizePath("code_challenge_method", "plain")), "invalid_request");
        assertRedirectError(owner.get(client.authorizePath("code_challenge_method", null)), "invalid_request");
        assertRedirectError(owner.get(client.authorizePath("response_type", "token")), "unsupported_response_type");
        assertRedirectError(owner.get(client.authorizePath("resource", "https://other.example/api/mcp")),
                "invalid_target");
        assertRedirectError(owner.get(client.authorizePath("scope", "mcp.use no.such.scope")), "invalid_scope");

        TestPerson.Page unknown = owner.get(client.authorizePath("client_id", "mcp_nobody"));
        assertEquals(400, unknown.status());
        assertNull(unknown.location());
        assertTrue(unknown.body().contains("Unknown application"), unknown.body());
        TestPerson.Page foreign = owner.get(client.authorizePath("redirect_uri", "https://evil.example/cb"));
        assertEquals(400, foreign.status());
        assertNull(foreign.location());
        assertTrue(foreign.body().contains("Wrong return address"), foreign.body());

        // Deny goes back to the client as access_denied.
        TestPerson.Page denied = owner.post("/oauth/authorize", "response_type", "code", "client_id", client.clientId,
                "redirect_uri", OAuthClientFixture.REDIRECT, "code_challenge", client.challenge,
                "code_challenge_method", "S256", "state", "s", "workspace", ws.toString(), "decision", "deny");
        assertEquals(303, denied.status());
        assertEquals("access_denied", OAuthClientFixture.params(denied.location()).get("error"));

        // Without the session's CSRF token the decision is refused.
        TestResponse forged = platform.send("POST", "/oauth/authorize", null, "client_id=" + client.clientId
                + "&decision=allow", Map.of("Content-Type", "application/x-www-form-urlencoded",
                "Origin", client.base()));
        assertEquals(403, forged.status(), forged.body());

        // A browser not signed in is asked to sign in, and comes back to the same request.
        TestResponse anonymous = platform.get(client.authorizePath(), null);
        assertEquals(200, anonymous.status());
        assertTrue(anonymous.body().contains("name=\"email\""), anonymous.body());
        assertTrue(anonymous.body().contains("/oauth/authorize/sign-in"), anonymous.body());
    }

    @Test
    void theTokenEndpointChecksRedirectVerifierAndSingleUseOfTheCode(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-token");
        TestPerson owner = platform.person(ws, "owner");
        var client = new OAuthClientFixture(platform);

        String code = client.consent(owner, ws, TOOLS, List.of("contacts.read"));
        TestResponse mismatch = client.token("grant_type", "authorization_code", "code", code, "redirect_uri",
                "http://127.0.0.1:7777/other", "client_id", client.clientId, "code_verifier", client.verifier);
        assertEquals("invalid_grant", mismatch.json().path("error").asText());

        code = client.consent(owner, ws, TOOLS, List.of("contacts.read"));
        TestResponse wrongVerifier = client.token("grant_type", "authorization_code", "code", code, "redirect_uri",
                OAuthClientFixture.REDIRECT, "client_id", client.clientId, "code_verifier", "x".repeat(43));
        assertEquals("invalid_grant", wrongVerifier.json().path("error").asText());
        TestResponse noVerifier = client.token("grant_type", "authorization_code", "code", code, "redirect_uri",
                OAuthClientFixture.REDIRECT, "client_id", client.clientId);
        assertEquals("invalid_request", noVerifier.json().path("error").asText());

        code = client.consent(owner, ws, TOOLS, List.of("contacts.read"));
        TestResponse otherResource = client.token("grant_type", "authorization_code", "code", code, "redirect_uri",
                OAuthClientFixture.REDIRECT, "client_id", client.clientId, "code_verifier", client.verifier,
                "resource", "https://other.example/api/mcp");
        assertEquals("invalid_target", otherResource.json().path("error").asText());

        TestResponse first = client.token("grant_type", "authorization_code", "code", code, "redirect_uri",
                OAuthClientFixture.REDIRECT, "client_id", client.clientId, "code_verifier", client.verifier,
                "resource", client.resource() + "/");
        assertEquals(200, first.status(), first.body());
        String access = first.json().path("access_token").asText();
        assertEquals(200, McpFixtures.rpc(platform, access, McpFixtures.LATEST, "tools/list", null).status());
        TestResponse again = client.exchange(code);
        assertEquals("invalid_grant", again.json().path("error").asText());
        assertEquals(401, McpFixtures.rpc(platform, access, McpFixtures.LATEST, "tools/list", null).status(),
                "a reused code revokes what it gave");

        assertEquals(401, client.token("grant_type", "authorization_code", "code", "x", "client_id", "mcp_nobody")
                .status());
        assertEquals("unsupported_grant_type", client.token("grant_type", "password", "client_id", client.clientId)
                .json().path("error").asText());
        TestResponse json = platform.send("POST", "/oauth/token", null, "{}", Map.of());
        assertEquals("invalid_request", json.json().path("error").asText());
    }

    @Test
    void toolsThePersonUncheckedAreNeitherListedNorCallable(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-tools");
        TestPerson owner = platform.person(ws, "owner");
        var client = new OAuthClientFixture(platform);
        String code = client.consent(owner, ws, TOOLS, List.of("contacts.read", "contacts.write"),
                "tools_shown", "1", "grant_tool", "crm_list_contacts");
        String access = client.exchange(code).json().path("access_token").asText();
        JsonNode listed = McpFixtures.result(McpFixtures.rpc(platform, access, McpFixtures.LATEST, "tools/list", null));
        assertEquals("crm_list_contacts", listed.path("tools").get(0).path("name").asText());
        assertEquals(1, listed.path("tools").size(), listed.toString());
        TestResponse denied = McpFixtures.rpc(platform, access, McpFixtures.LATEST, "tools/call",
                "{\"name\":\"crm_create_contact\",\"arguments\":{}}");
        assertTrue(denied.body().contains("-32010"), denied.body());

        // Unchecking every tool leaves none.
        code = client.consent(owner, ws, TOOLS, List.of("contacts.read"), "tools_shown", "1");
        access = client.exchange(code).json().path("access_token").asText();
        listed = McpFixtures.result(McpFixtures.rpc(platform, access, McpFixtures.LATEST, "tools/list", null));
        assertEquals(0, listed.path("tools").size(), listed.toString());
    }

    @Test
    void aMemberAskingForScopesTheirRoleLacksGetsThemCappedAndAMissingScopeIsAChallenge(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-member");
        TestPerson member = platform.person(ws, "member");
        var client = new OAuthClientFixture(platform);
        JsonNode tokens = client.connect(member, ws, "mcp.use contacts.read webhooks.read",
                List.of("contacts.read", "webhooks.read"));
        assertEquals("mcp.use contacts.read", tokens.path("scope").asText());
        String access = tokens.path("access_token").asText();
        JsonNode session = platform.get("/api/mcp/session", access).json();
        assertFalse(session.path("permissions").toString().contains("webhooks.read"), session.toString());

        TestResponse audit = platform.get("/api/mcp/audit", access);
        assertEquals(403, audit.status(), audit.body());
        String challenge = audit.header("WWW-Authenticate").orElseThrow();
        assertTrue(challenge.contains("error=\"insufficient_scope\""), challenge);
        assertTrue(challenge.contains("scope=\"mcp.audit.read\""), challenge);
        assertTrue(challenge.contains("resource_metadata="), challenge);
    }

    @Test
    void aPersonDisconnectsTheirClientAndTheNextRequestIsRefusedWhileAdminsSeeEveryGrant(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-revoke");
        TestPerson member = platform.person(ws, "member");
        TestPerson owner = platform.person(ws, "owner");
        var client = new OAuthClientFixture(platform);
        String access = client.connect(member, ws, TOOLS, List.of("contacts.read")).path("access_token").asText();
        assertEquals(200, McpFixtures.rpc(platform, access, McpFixtures.LATEST, "tools/list", null).status());

        TestPerson.Page mine = member.get("/app/connected-clients");
        assertEquals(200, mine.status(), mine.body());
        assertTrue(mine.body().contains("Test assistant"), mine.body());
        TestPerson.Page all = owner.get("/console/mcp-clients");
        assertEquals(200, all.status(), all.body());
        assertTrue(all.body().contains(member.email()), all.body());
        assertEquals(200, owner.get("/app/connected-clients").status());
        assertFalse(owner.get("/app/connected-clients").body().contains("Test assistant"),
                "the owner's own page lists the owner's clients only");

        UUID grant = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT id FROM lnp_oauth.grants WHERE workspace_id = :ws").bind("ws", ws).mapTo(UUID.class).one());
        assertEquals(404, owner.post("/app/connected-clients/" + grant + "/revoke").status(),
                "the person's page is theirs alone");
        TestPerson.Page revoked = member.post("/app/connected-clients/" + grant + "/revoke");
        assertEquals(303, revoked.status(), revoked.body());
        TestResponse refused = McpFixtures.rpc(platform, access, McpFixtures.LATEST, "tools/list", null);
        assertEquals(401, refused.status());
        assertTrue(refused.header("WWW-Authenticate").orElseThrow().contains("resource_metadata="));
        assertTrue(member.get("/app/connected-clients/" + grant).body().contains("revoked_by_person"));
    }

    @Test
    void revokingARefreshTokenEndsTheGrantAndRevokingAnAccessTokenEndsThatTokenOnly(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-rfc7009");
        TestPerson owner = platform.person(ws, "owner");
        var client = new OAuthClientFixture(platform);
        JsonNode first = client.connect(owner, ws, TOOLS, List.of("contacts.read"));
        String access = first.path("access_token").asText();
        JsonNode rotated = client.refresh(first.path("refresh_token").asText()).json();
        assertEquals(200, revoke(platform, access).status());
        assertEquals(401, McpFixtures.rpc(platform, access, McpFixtures.LATEST, "tools/list", null).status());
        String second = rotated.path("access_token").asText();
        assertEquals(200, McpFixtures.rpc(platform, second, McpFixtures.LATEST, "tools/list", null).status(),
                "the grant lives on");

        assertEquals(200, revoke(platform, rotated.path("refresh_token").asText()).status());
        assertEquals(401, McpFixtures.rpc(platform, second, McpFixtures.LATEST, "tools/list", null).status());
        assertEquals(200, revoke(platform, "lnprt_unknown").status(), "RFC 7009: unknown tokens are answered 200");
        assertEquals("invalid_request", platform.send("POST", "/oauth/revoke", null, "", Map.of("Content-Type",
                "application/x-www-form-urlencoded")).json().path("error").asText());
    }

    @Test
    void aRefreshTokenServesItsOwnClientAndCannotWidenTheGrant(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-refresh-rules");
        TestPerson owner = platform.person(ws, "owner");
        var client = new OAuthClientFixture(platform);
        var other = new OAuthClientFixture(platform);
        String refresh = client.connect(owner, ws, TOOLS, List.of("contacts.read")).path("refresh_token").asText();
        TestResponse stolen = other.refresh(refresh);
        assertEquals("invalid_grant", stolen.json().path("error").asText());
        TestResponse wider = client.token("grant_type", "refresh_token", "refresh_token", refresh, "client_id",
                client.clientId, "scope", "mcp.use contacts.write");
        assertEquals("invalid_scope", wider.json().path("error").asText());
        assertEquals("invalid_request", client.token("grant_type", "refresh_token", "client_id", client.clientId)
                .json().path("error").asText());
        assertEquals("invalid_request", client.token("grant_type", "refresh_token", "client_id", client.clientId,
                "client_id", client.clientId).json().path("error").asText(), "a repeated parameter");
    }

    @Test
    void aRefreshMayAskForFewerScopesAndItsAccessTokenHasOnlyThoseWhileTheGrantKeepsItsOwn(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-refresh-narrower");
        TestPerson owner = platform.person(ws, "owner");
        var client = new OAuthClientFixture(platform);
        String refresh = client.connect(owner, ws, TOOLS, List.of("contacts.read", "contacts.write"))
                .path("refresh_token").asText();
        TestResponse narrower = client.token("grant_type", "refresh_token", "refresh_token", refresh, "client_id",
                client.clientId, "scope", "contacts.read");
        assertEquals(200, narrower.status(), narrower.body());
        assertEquals("mcp.use contacts.read", narrower.json().path("scope").asText(), "the endpoint's own scope stays");
        String limited = narrower.json().path("access_token").asText();
        String tools = McpFixtures.result(McpFixtures.rpc(platform, limited, McpFixtures.LATEST, "tools/list", null))
                .path("tools").toString();
        assertTrue(tools.contains("crm_list_contacts"), tools);
        assertFalse(tools.contains("crm_create_contact"), "contacts.write was not asked for: " + tools);

        // The new refresh token still carries the grant's scopes: a refresh without scope gets them all back.
        TestResponse full = client.refresh(narrower.json().path("refresh_token").asText());
        assertEquals(200, full.status(), full.body());
        assertEquals("mcp.use contacts.read contacts.write", full.json().path("scope").asText());
        String all = McpFixtures.result(McpFixtures.rpc(platform, full.json().path("access_token").asText(),
                McpFixtures.LATEST, "tools/list", null)).path("tools").toString();
        assertTrue(all.contains("crm_create_contact"), all);
        // The limited token keeps its limit while it lives.
        assertFalse(McpFixtures.result(McpFixtures.rpc(platform, limited, McpFixtures.LATEST, "tools/list", null))
                .path("tools").toString().contains("crm_create_contact"));
    }

    @Test
    void anAdminDisconnectsAMembersClientFromTheConsole(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-admin");
        TestPerson member = platform.person(ws, "member");
        TestPerson admin = platform.person(ws, "admin");
        var client = new OAuthClientFixture(platform);
        String access = client.connect(member, ws, TOOLS, List.of("contacts.read")).path("access_token").asText();
        UUID grant = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT id FROM lnp_oauth.grants WHERE workspace_id = :ws").bind("ws", ws).mapTo(UUID.class).one());
        assertEquals(200, admin.get("/console/mcp-clients/" + grant).status());
        TestPerson.Page refusedToMember = member.get("/console/mcp-clients");
        assertTrue(refusedToMember.status() != 200 && !refusedToMember.body().contains("Test assistant"),
                "members do not reach the console's list");
        TestPerson.Page revoked = admin.post("/console/mcp-clients/" + grant + "/revoke");
        assertEquals(303, revoked.status(), revoked.body());
        assertEquals(401, McpFixtures.rpc(platform, access, McpFixtures.LATEST, "tools/list", null).status());
        UUID otherWs = platform.createWorkspace("oauth-admin-other");
        assertEquals(404, platform.person(otherWs, "owner").get("/console/mcp-clients/" + grant).status(),
                "another workspace's grant is not found");
    }

    @Test
    void revokingTheGrantsConnectionUnderExternalConnectionsEndsTheGrantToo(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-connection-revoked");
        TestPerson owner = platform.person(ws, "owner");
        var client = new OAuthClientFixture(platform);
        JsonNode tokens = client.connect(owner, ws, TOOLS, List.of("contacts.read"));
        UUID grant = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT id FROM lnp_oauth.grants WHERE workspace_id = :ws").bind("ws", ws).mapTo(UUID.class).one());
        UUID connection = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT connection_id FROM lnp_oauth.grants WHERE id = :id").bind("id", grant).mapTo(UUID.class).one());
        platform.connections().revoke(connection);
        assertEquals(401, McpFixtures.rpc(platform, tokens.path("access_token").asText(), McpFixtures.LATEST,
                "tools/list", null).status());
        assertEquals("invalid_grant", client.refresh(tokens.path("refresh_token").asText()).json().path("error")
                .asText());
        assertTrue(owner.get("/console/mcp-clients/" + grant).body().contains("connection_revoked"));
    }

    @Test
    void theSignInFormOfAnAuthorizationRequestMailsALinkBackToIt(TestPlatform platform) {
        UUID ws = platform.createWorkspace("oauth-sign-in");
        TestPerson owner = platform.person(ws, "owner");
        var client = new OAuthClientFixture(platform);
        TestPerson.Page sent = owner.post("/oauth/authorize/sign-in", "email", owner.email(), "return",
                client.authorizePath());
        assertEquals(200, sent.status(), sent.body());
        TestPerson.Page elsewhere = owner.post("/oauth/authorize/sign-in", "email", owner.email(), "return",
                "https://evil.example/");
        assertEquals(400, elsewhere.status());
        assertTrue(elsewhere.body().contains("Sign-in not started"), elsewhere.body());
        assertEquals(400, owner.post("/oauth/authorize/sign-in", "email", "", "return", client.authorizePath())
                .status());
    }

    private static TestResponse revoke(TestPlatform platform, String token) {
        return platform.send("POST", "/oauth/revoke", null, "token=" + token,
                Map.of("Content-Type", "application/x-www-form-urlencoded"));
    }

    private static void assertRedirectError(TestPerson.Page page, String error) {
        assertEquals(302, page.status(), page.body());
        Map<String, String> params = OAuthClientFixture.params(page.location());
        assertEquals(error, params.get("error"), page.location());
        assertEquals("state-123", params.get("state"));
        assertTrue(page.location().startsWith(OAuthClientFixture.REDIRECT + "?"));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static TestResponse register(TestPlatform platform, String json) {
        return platform.send("POST", "/oauth/register", null, json, Map.of());
    }
}
