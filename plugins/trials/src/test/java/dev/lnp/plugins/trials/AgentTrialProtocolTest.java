package dev.lnp.plugins.trials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The trial protocol over real HTTP on a real PostgreSQL, with GreenMail receiving the mails: every state and
 * move, the errors, the token rules, the key's restrictions and budget, revocation, and expiry with the trials'
 * movable clock (the tests that move it run last).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentTrialProtocolTest {

    private static Mailbox mail;
    private static TestPlatform platform;

    @BeforeAll
    static void start() {
        mail = new Mailbox();
        Map<String, String> config = new HashMap<>(mail.platformConfig());
        config.put("lnp.trials.movable_clock", "true");
        config.put("lnp.trials.sweep_interval_ms", "200");
        config.put("lnp.trials.limits.requests_per_client_per_hour", "1000");
        config.put("lnp.limits.mcp_per_minute", "1000");
        platform = TestPlatform.start("trials_protocol", List.of("trials", "mcp", "crm", "projects", "issues"), null,
                config);
    }

    @AfterAll
    static void stop() {
        if (platform != null) {
            platform.close();
        }
        if (mail != null) {
            mail.close();
        }
    }

    private static TrialClock clock() {
        return platform.platform().registry().service(TrialClock.class).orElseThrow();
    }

    private static String email(String who) {
        return who + "-" + UUID.randomUUID().toString().substring(0, 8) + "@example.org";
    }

    @Test
    @Order(1)
    void manifestIsVersionedCacheableAndPointsAtEveryStep() {
        TestResponse r = platform.get(TrialRoutes.MANIFEST, null);
        assertEquals(200, r.status(), r.toString());
        JsonNode m = r.json();
        assertEquals("1", m.path("version").asText());
        assertEquals(24, m.path("trial").path("approval_window_hours").asInt());
        assertEquals(7, m.path("trial").path("credential_lifetime_days").asInt());
        assertEquals(250, m.path("trial").path("tool_calls").asInt());
        assertEquals(2, m.path("polling").path("initial_interval_seconds").asInt());
        assertEquals(30, m.path("polling").path("max_interval_seconds").asInt());
        assertTrue(m.path("steps").path("challenge").path("url").asText().endsWith(TrialRoutes.CHALLENGE));
        assertTrue(m.path("steps").path("request").path("url").asText().endsWith(TrialRoutes.SUBMIT));
        assertTrue(m.path("steps").path("status").path("url").asText().endsWith(TrialRoutes.STATUS));
        assertTrue(m.path("openapi_url").asText().endsWith(TrialRoutes.OPENAPI));
        assertTrue(m.path("mcp").path("protocol_versions").size() > 0);
        assertTrue(r.header("Cache-Control").orElseThrow().contains("max-age"));
        String etag = r.header("ETag").orElseThrow();
        TestResponse again = platform.send("GET", TrialRoutes.MANIFEST, null, null, Map.of("If-None-Match", etag));
        assertEquals(304, again.status());
        assertEquals(200, platform.get(m.path("documentation_url").asText().replaceFirst("^http://[^/]+", ""), null)
                .status());
    }

    @Test
    @Order(2)
    void challengeRules() {
        String owner = email("ada");
        // A wrong answer burns the challenge: the right answer afterwards is refused as used.
        JsonNode c = Agent.challenge(platform);
        assertTrue(c.path("expires_at").asText().length() > 0);
        ObjectNode wrong = Agent.body(c.path("token").asText(), "0".repeat(64), owner, "Ada trial");
        TestResponse r = platform.post(TrialRoutes.SUBMIT, null, wrong.toString());
        assertEquals(422, r.status(), r.toString());
        assertEquals("challenge_wrong", r.json().path("code").asText());
        r = platform.post(TrialRoutes.SUBMIT, null, Agent.body(c, owner, "Ada trial").toString());
        assertEquals(409, r.status(), r.toString());
        assertEquals("challenge_used", r.json().path("code").asText());

        // Bound to the request: an answer computed for another owner or workspace name fails.
        JsonNode c2 = Agent.challenge(platform);
        ObjectNode forOther = Agent.body(c2, "mallory@example.org", "Ada trial");
        forOther.put("owner_email", owner);
        r = platform.post(TrialRoutes.SUBMIT, null, forOther.toString());
        assertEquals(422, r.status(), r.toString());
        assertEquals("challenge_wrong", r.json().path("code").asText());

        // A replayed, correct submission fails: single use.
        JsonNode c3 = Agent.challenge(platform);
        String body = Agent.body(c3, owner, "Ada trial").toString();
        assertEquals(202, platform.post(TrialRoutes.SUBMIT, null, body).status());
        r = platform.post(TrialRoutes.SUBMIT, null, body);
        assertEquals(409, r.status(), r.toString());
        assertEquals("challenge_used", r.json().path("code").asText());

        // A forged token (changed parameters, old signature) is not ours.
        JsonNode c4 = Agent.challenge(platform);
        String token = c4.path("token").asText();
        String forged = "x" + token.substring(1);
        r = platform.post(TrialRoutes.SUBMIT, null, Agent.body(forged, "a".repeat(64), owner, "X").toString());
        assertEquals(422, r.status(), r.toString());
        assertEquals("challenge_invalid", r.json().path("code").asText());
        assertEquals("/challenge/token", r.json().path("errors").path(0).path("pointer").asText());
    }

    private static final java.util.regex.Pattern JSON_MEMBER = java.util.regex.Pattern.compile("[{,]\"[a-z_]{1,20}\":");

    @Test
    @Order(2)
    void theChallengeTokenRevealsNothingOfTheQuestion() {
        for (int i = 0; i < 30; i++) {
            JsonNode c = Agent.challenge(platform);
            String token = c.path("token").asText();
            List<Long> numbers = new java.util.ArrayList<>();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\d+").matcher(c.path("question").asText());
            while (m.find()) {
                numbers.add(Long.parseLong(m.group()));
            }
            String joined = numbers.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
            List<String> parts = new java.util.ArrayList<>(List.of(token));
            parts.addAll(List.of(token.split("[.~_-]")));
            for (String part : parts) {
                for (byte[] decoded : decodings(part)) {
                    String text = new String(decoded, java.nio.charset.StandardCharsets.ISO_8859_1);
                    assertFalse(text.contains(joined), "the numbers in a row: " + part);
                    // A member name and its colon: two bytes alone, such as {", turn up in random bytes now and then.
                    assertFalse(text.contains("\"p\"") || JSON_MEMBER.matcher(text).find(), "readable JSON: " + text);
                    assertFalse(parsesAsJson(decoded), "the token decodes to JSON: " + text);
                    for (long n : numbers) {
                        byte[] big = java.nio.ByteBuffer.allocate(4).putInt((int) n).array();
                        byte[] little = java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                                .putInt((int) n).array();
                        assertFalse(contains(decoded, big) || contains(decoded, little),
                                n + " as a 32-bit number in " + part);
                    }
                }
            }
            // Solving it from the question still works.
            if (i == 0) {
                assertEquals(202, platform.post(TrialRoutes.SUBMIT, null,
                        Agent.body(c, email("opaque"), "Opaque").toString()).status());
            }
        }
    }

    /** Every way the text could be read as base64: standard, URL-safe, with or without padding. */
    private static List<byte[]> decodings(String text) {
        List<byte[]> out = new java.util.ArrayList<>();
        String padded = text + "=".repeat((4 - text.length() % 4) % 4);
        for (java.util.Base64.Decoder d : List.of(java.util.Base64.getDecoder(), java.util.Base64.getUrlDecoder(),
                java.util.Base64.getMimeDecoder())) {
            for (String t : List.of(text, padded)) {
                try {
                    out.add(d.decode(t));
                } catch (IllegalArgumentException notThisWay) {
                    // Not base64 read this way.
                }
            }
        }
        out.add(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return out;
    }

    private static boolean parsesAsJson(byte[] bytes) {
        try {
            JsonNode node = Json.mapper().readTree(bytes);
            return node != null && (node.isObject() || node.isArray());
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Test
    @Order(3)
    void strictBodyAndReadableErrors() {
        String owner = email("strict");
        ObjectNode body = Agent.body(Agent.challenge(platform), owner, "Strict");
        body.put("extra", true);
        TestResponse r = platform.post(TrialRoutes.SUBMIT, null, body.toString());
        assertTrue(r.status() == 422 || r.status() == 400, r.toString());
        assertTrue(r.body().contains("extra"), r.body());

        ObjectNode missing = Agent.body(Agent.challenge(platform), owner, "Strict");
        missing.remove("purpose");
        r = platform.post(TrialRoutes.SUBMIT, null, missing.toString());
        assertEquals(422, r.status(), r.toString());
        assertTrue(r.body().contains("purpose"), r.body());

        ObjectNode agent = Agent.body(Agent.challenge(platform), owner, "Strict");
        ((ObjectNode) agent.path("agent")).put("model", "x");
        r = platform.post(TrialRoutes.SUBMIT, null, agent.toString());
        assertEquals(422, r.status(), r.toString());

        r = platform.post(TrialRoutes.SUBMIT, null, "{not json");
        assertEquals(400, r.status(), r.toString());

        // An address the mailer cannot send to (non-ASCII) is refused by name, never a 500.
        ObjectNode unsendable = Agent.body(Agent.challenge(platform), "jürgen-" + UUID.randomUUID().toString()
                .substring(0, 6) + "@example.org", "Strict");
        r = platform.post(TrialRoutes.SUBMIT, null, unsendable.toString());
        assertEquals(422, r.status(), r.toString());
        assertTrue(r.body().contains("owner_email"), r.body());

        ObjectNode badEmail = Agent.body(Agent.challenge(platform), "not-an-address", "Strict");
        r = platform.post(TrialRoutes.SUBMIT, null, badEmail.toString());
        assertEquals(422, r.status(), r.toString());
        assertTrue(r.body().contains("owner_email"), r.body());
    }

    @Test
    @Order(4)
    void statusTokenRules() {
        String owner = email("tokens");
        JsonNode accepted = Agent.submit(platform, owner, "Token rules");
        String token = accepted.path("request_token").asText();
        assertTrue(token.startsWith("trq_"));
        // Stored hashed: the token itself is nowhere in the database.
        String hex = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT encode(token_hash, 'hex') FROM trials.requests WHERE id = :id")
                .bind("id", UUID.fromString(accepted.path("request_id").asText())).mapTo(String.class).one());
        assertEquals(Challenges.sha256Hex(token), hex);

        assertEquals(401, Agent.status(platform, null).status());
        TestResponse bad = Agent.status(platform, "trq_" + "A".repeat(43));
        assertEquals(401, bad.status());
        assertEquals("invalid_request_token", bad.json().path("code").asText());
        assertEquals(401, Agent.status(platform, "lnp_" + "A".repeat(43)).status());
        // The request token works nowhere else.
        assertEquals(401, platform.get("/api/v1/crm/contacts", token).status());
        assertEquals(401, platform.get("/api/mcp/session", token).status());
        assertEquals(401, Agent.mcpCall(platform, token, "crm_list_contacts", "{}").status());
    }

    @Test
    @Order(5)
    void pendingPollingSlowDownThenApprovalKeyOnceAndTheKeysRestrictions() throws Exception {
        String owner = email("grace");
        JsonNode accepted = Agent.submit(platform, owner, "Grace's evaluation");
        assertEquals("pending", accepted.path("state").asText());
        assertEquals(2, accepted.path("poll_interval_seconds").asInt());
        assertTrue(accepted.path("binding_code").asText().matches("[A-Z2-9]{3}-[A-Z2-9]{3}"));
        String token = accepted.path("request_token").asText();

        TestResponse pending = Agent.status(platform, token);
        assertEquals(200, pending.status(), pending.toString());
        assertEquals("pending", pending.json().path("state").asText());
        assertFalse(pending.json().path("terminal").asBoolean());
        assertEquals("2", pending.header("Retry-After").orElseThrow());
        TestResponse tooSoon = Agent.status(platform, token);
        assertEquals(429, tooSoon.status(), tooSoon.toString());
        assertEquals("slow_down", tooSoon.json().path("code").asText());
        assertTrue(Integer.parseInt(tooSoon.header("Retry-After").orElseThrow()) >= 1);

        // The mail: link, agent, purpose, binding code.
        String text = mail.awaitText(owner, 1);
        assertTrue(text.contains("Scout") && text.contains("Example Labs") && text.contains("sales-assistant"), text);
        assertTrue(text.contains(accepted.path("binding_code").asText()), text);
        String link = mail.awaitApprovalLink(owner, 1);

        // Opening the page (as a mail scanner would) changes nothing, and a browser that is not signed in as
        // the owner is offered only a sign-in link to the owner's address.
        Owner person = new Owner(platform.port(), mail, owner);
        Owner.Page page = person.get(link);
        assertEquals(200, page.status(), page.body());
        assertTrue(page.body().contains(accepted.path("binding_code").asText()));
        assertTrue(page.response().headers().firstValue("Content-Security-Policy").isPresent());
        assertTrue(page.hasButton("sign-in"));
        assertFalse(page.hasButton("approve"));
        Owner.Page notSignedIn = person.post(TrialRoutes.APPROVE, Owner.form("request", page.hidden("request"),
                "key", page.hidden("key"), "csrf", page.hidden("csrf"), "decision", "approve"));
        assertEquals(403, notSignedIn.status(), notSignedIn.body());
        Thread.sleep(2000);
        assertEquals("pending", Agent.status(platform, token).json().path("state").asText());

        // Signed in by the mailed link, the owner sees the buttons; a wrong CSRF token or link secret is refused.
        person.signIn(page);
        Owner.Page signedIn = person.get(link);
        assertTrue(signedIn.hasButton("approve") && signedIn.hasButton("deny"), signedIn.body());
        assertEquals(403, person.post(TrialRoutes.APPROVE, Owner.form("request", signedIn.hidden("request"),
                "key", signedIn.hidden("key"), "csrf", "forged", "decision", "approve")).status());
        assertEquals(404, person.post(TrialRoutes.APPROVE, Owner.form("request", signedIn.hidden("request"),
                "key", "C".repeat(43), "csrf", signedIn.hidden("csrf"), "decision", "approve")).status());

        Owner.Page approved = person.decide(link, "approve");
        assertEquals(200, approved.status(), approved.body());
        assertTrue(approved.body().contains("Approved"), approved.body());
        // Approving twice changes nothing.
        assertEquals(409, person.decide(link, "approve").status());

        Thread.sleep(2000);
        TestResponse first = Agent.status(platform, token);
        assertEquals(200, first.status(), first.toString());
        JsonNode s = first.json();
        assertEquals("approved", s.path("state").asText());
        String key = s.path("api_key").asText();
        assertTrue(key.startsWith("lnp_"), s.toString());
        assertEquals(250, s.path("tool_call_limit").asInt());
        assertTrue(s.path("mcp_url").asText().endsWith("/api/mcp"));
        assertEquals("no-store", first.header("Cache-Control").orElseThrow());
        TestResponse second = Agent.status(platform, token);
        assertEquals(409, second.status(), second.toString());
        assertEquals("capability_consumed", second.json().path("code").asText());
        assertEquals("approved", second.json().path("state").asText());
        assertFalse(second.body().contains(key));
        // Shaped like every other problem: the platform's type, this HTTP request's id, the trial in its own field.
        assertEquals("https://lnp.dev/problems/capability-consumed", second.json().path("type").asText());
        assertEquals(second.header("X-Request-Id").orElseThrow(), second.json().path("request_id").asText());
        assertEquals(accepted.path("request_id").asText(), second.json().path("trial_request_id").asText());
        assertEquals("application/problem+json", second.header("Content-Type").orElseThrow());

        // The trial key: MCP only, the session shows the budget and the expiry, REST answers 403.
        TestResponse rest = platform.get("/api/v1/crm/contacts", key);
        assertEquals(403, rest.status(), rest.toString());
        assertEquals("key_not_valid_for_rest", rest.json().path("code").asText());
        TestResponse session = platform.get("/api/mcp/session", key);
        assertEquals(200, session.status(), session.toString());
        assertEquals(250, session.json().path("toolCalls").path("limit").asInt());
        assertEquals(250, session.json().path("toolCalls").path("remaining").asInt());
        assertEquals(s.path("key_expires_at").asText(), session.json().path("toolCalls").path("expiresAt").asText()
                .replaceAll("\\.\\d+Z$", "Z"));

        // The workspace is new, owned by the owner, and seeded with sample data through the other plugins' tools.
        UUID ws = UUID.fromString(s.path("workspace_id").asText());
        assertEquals(owner, platform.workspaces().find(ws).orElseThrow().ownerEmail());
        TestResponse contacts = Agent.mcpCall(platform, key, "crm_list_contacts", "{}");
        assertEquals(200, contacts.status(), contacts.toString());
        assertEquals(5, contacts.json().path("data").path("items").size(), contacts.body());
        assertTrue(contacts.body().contains("Northwind Logistics"));
        int deals = Agent.mcpCall(platform, key, "crm_list_deals", "{}").json().path("data").path("items").size();
        assertEquals(4, deals);
        assertEquals(248, platform.get("/api/mcp/session", key).json().path("toolCalls").path("remaining").asInt());
        // The seeding key is revoked; only the trial key is live.
        long live = platform.connections().list(ws).stream().filter(c -> c.revokedAt() == null).count();
        assertEquals(1, live);

        // The owner mail after approval.
        assertEquals(1, mail.messagesTo(owner).stream().filter(m -> {
            try {
                return m.getSubject().startsWith("Trial workspace created");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).count());

        // The 250-call budget: 248 more calls succeed, the 251st is refused, and the session shows 0.
        for (int i = 0; i < 248; i++) {
            TestResponse call = Agent.mcpCall(platform, key, "crm_list_deals", "{\"limit\":1}");
            assertEquals(200, call.status(), "call " + (i + 3) + ": " + call);
        }
        TestResponse refused = Agent.mcpCall(platform, key, "crm_list_deals", "{}");
        assertEquals(403, refused.status(), refused.toString());
        assertEquals("tool_call_budget_exhausted", refused.json().path("code").asText());
        assertEquals(0, platform.get("/api/mcp/session", key).json().path("toolCalls").path("remaining").asInt());
        int used = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT tool_calls_used FROM lnp_core.connections WHERE workspace_id = :ws AND tool_call_budget IS NOT NULL")
                .bind("ws", ws).mapTo(Integer.class).one());
        assertEquals(250, used);

        // Revocation from the owner's page: the key fails at once, the agent sees revoked.
        Owner.Page revoked = person.decide(link, "revoke");
        assertEquals(200, revoked.status(), revoked.body());
        assertEquals(401, platform.get("/api/mcp/session", key).status());
        TestResponse after = Agent.status(platform, token);
        assertEquals("revoked", after.json().path("state").asText());
        assertTrue(after.json().path("terminal").asBoolean());
    }

    @Test
    @Order(6)
    void budgetHoldsUnderConcurrentCalls() throws Exception {
        String owner = email("race");
        JsonNode accepted = Agent.submit(platform, owner, "Race");
        new Owner(platform.port(), mail, owner).decide(mail.awaitApprovalLink(owner, 1), "approve");
        String key = Agent.status(platform, accepted.path("request_token").asText()).json().path("api_key").asText();
        UUID connection = platform.principal(key).connectionId();
        // Leave 20 calls, then fire 60 at once from 12 threads: exactly 20 succeed.
        platform.jdbi().useHandle(h -> h.createUpdate(
                "UPDATE lnp_core.connections SET tool_calls_used = 230 WHERE id = :id").bind("id", connection).execute());
        var pool = java.util.concurrent.Executors.newFixedThreadPool(12);
        try {
            List<java.util.concurrent.Future<Integer>> calls = new java.util.ArrayList<>();
            for (int i = 0; i < 60; i++) {
                calls.add(pool.submit(() -> Agent.mcpCall(platform, key, "crm_list_deals", "{\"limit\":1}").status()));
            }
            int ok = 0;
            int refused = 0;
            for (var f : calls) {
                int status = f.get();
                if (status == 200) {
                    ok++;
                } else if (status == 403) {
                    refused++;
                }
            }
            assertEquals(20, ok);
            assertEquals(40, refused);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Order(7)
    void denialIsTerminalAndTellsTheAgent() throws Exception {
        String owner = email("deny");
        JsonNode accepted = Agent.submit(platform, owner, "Denied trial");
        Owner person = new Owner(platform.port(), mail, owner);
        Owner.Page denied = person.decide(mail.awaitApprovalLink(owner, 1), "deny");
        assertEquals(200, denied.status(), denied.body());
        TestResponse s = Agent.status(platform, accepted.path("request_token").asText());
        assertEquals(200, s.status());
        assertEquals("denied", s.json().path("state").asText());
        assertTrue(s.json().path("terminal").asBoolean());
        assertFalse(s.json().has("api_key"));
        // Nothing can be approved afterwards.
        assertEquals(409, person.decide(mail.awaitApprovalLink(owner, 1), "approve").status());
        // An invalid link is a readable page, not a 500.
        var bad = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                platform.uri(TrialRoutes.APPROVE + "?request=nope&key=x")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, bad.statusCode());
        assertTrue(bad.body().contains("Link not valid"));
    }

    @Test
    @Order(8)
    void openApiDocumentIsValidOpenApi31FromTheRouteSchemas() {
        TestResponse r = platform.get(TrialRoutes.OPENAPI, null);
        assertEquals(200, r.status());
        var result = new io.swagger.v3.parser.OpenAPIV3Parser().readContents(r.body(), null, null);
        assertNotNull(result.getOpenAPI(), String.valueOf(result.getMessages()));
        assertTrue(result.getMessages() == null || result.getMessages().isEmpty(), String.valueOf(result.getMessages()));
        assertEquals("3.1.0", result.getOpenAPI().getOpenapi());
        JsonNode doc = r.json();
        JsonNode body = doc.path("components").path("schemas").path("PostApiAgentTrialsBody");
        // The same schema file the route validates with.
        JsonNode file = Json.parse(new String(readResource("/schemas/trial-request.json")));
        assertEquals(file.path("properties"), body.path("properties"));
        assertTrue(doc.path("paths").has(TrialRoutes.STATUS));
        assertTrue(doc.path("paths").has(TrialRoutes.CHALLENGE));
        assertTrue(doc.path("paths").has(TrialRoutes.APPROVE));
    }

    @Test
    @Order(9)
    void theOwnerSeesTheTrialInTheConsoleAndRevokesIt() {
        String owner = email("console");
        JsonNode accepted = Agent.submit(platform, owner, "Console trial");
        Owner person = new Owner(platform.port(), mail, owner);
        assertEquals(200, person.decide(mail.awaitApprovalLink(owner, 1), "approve").status());
        String key = Agent.status(platform, accepted.path("request_token").asText()).json().path("api_key").asText();
        assertEquals(200, Agent.mcpCall(platform, key, "crm_list_deals", "{}").status());

        // The owner, signed in before the workspace existed, enters it in the console first.
        Owner.Page choose = person.get("/console/workspaces");
        assertEquals(200, choose.status(), choose.body());
        assertEquals(303, person.post("/console/workspaces", Owner.form("csrf", choose.hidden("csrf"), "user_id",
                choose.hidden("user_id"))).status());
        String trials = "/console/trials/agent-trials";
        Owner.Page list = person.get(trials);
        assertEquals(200, list.status(), list.body());
        assertTrue(list.body().contains("Scout") && list.body().contains("approved") && list.body().contains("249"),
                list.body());
        assertTrue(list.body().contains(">Agent trials</a>"), "the navigation entry: " + list.body());
        String id = accepted.path("request_id").asText();
        Owner.Page trial = person.get(trials + "/" + id);
        assertEquals(200, trial.status(), trial.body());
        assertTrue(trial.body().contains("action=\"" + trials + "/" + id + "/revoke\""), trial.body());
        assertTrue(trial.body().contains("The agent&#39;s key stops working at once")
                || trial.body().contains("The agent's key stops working at once"), "confirmed first: " + trial.body());
        Owner.Page done = person.post(trials + "/" + id + "/revoke", Owner.form("csrf",
                trial.hidden("csrf"), "confirm", "yes"));
        assertEquals(303, done.status(), done.body());
        assertEquals(trials + "/" + id, done.response().headers().firstValue("Location").orElse(null));
        assertEquals(401, platform.get("/api/mcp/session", key).status());
        assertEquals("revoked", Agent.status(platform, accepted.path("request_token").asText()).json()
                .path("state").asText());
        Owner.Page revoked = person.get(trials + "/" + id);
        assertTrue(revoked.body().contains("Trial revoked: the key no longer works."), revoked.body());
        assertTrue(revoked.body().contains("<dt>State</dt><dd>revoked</dd>"), revoked.body());
        assertFalse(revoked.body().contains("/revoke\""), "no longer offered");
        Owner.Page again = person.post(trials + "/" + id + "/revoke", Owner.form("csrf", trial.hidden("csrf"),
                "confirm", "yes"));
        assertEquals(409, again.status(), again.body());
    }

    private static byte[] readResource(String path) {
        try (var in = TrialRoutes.class.getResourceAsStream(path)) {
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    @Order(20)
    void expiredChallengeIsRefused() {
        JsonNode c = Agent.challenge(platform);
        clock().advance(Duration.ofMinutes(3));
        TestResponse r = platform.post(TrialRoutes.SUBMIT, null, Agent.body(c, email("late"), "Late").toString());
        assertEquals(422, r.status(), r.toString());
        assertEquals("challenge_expired", r.json().path("code").asText());
    }

    @Test
    @Order(21)
    void pendingExpiresAfter24HoursAndApprovedTrialsAfter7Days() throws Exception {
        // An approved trial whose key was collected, and a pending request.
        String owner = email("expiry");
        JsonNode trial = Agent.submit(platform, owner, "Expiring trial");
        new Owner(platform.port(), mail, owner).decide(mail.awaitApprovalLink(owner, 1), "approve");
        String trialToken = trial.path("request_token").asText();
        String key = Agent.status(platform, trialToken).json().path("api_key").asText();
        assertEquals(200, platform.get("/api/mcp/session", key).status());
        String waiter = email("waiting");
        JsonNode pending = Agent.submit(platform, waiter, "Never approved");
        String pendingLink = mail.awaitApprovalLink(waiter, 1);
        UUID pendingId = UUID.fromString(pending.path("request_id").asText());

        clock().advance(Duration.ofHours(23));
        Thread.sleep(800);
        assertEquals("pending", state(pendingId));
        clock().advance(Duration.ofHours(2));
        // The sweeper (not the status request) moves it.
        awaitState(pendingId, "expired");
        TestResponse s = Agent.status(platform, pending.path("request_token").asText());
        assertEquals("expired", s.json().path("state").asText());
        assertEquals("approval_window_passed", s.json().path("reason").asText());
        assertTrue(s.json().path("terminal").asBoolean());
        // Too late to decide: the page says so and offers nothing.
        Owner.Page late = new Owner(platform.port(), mail, waiter).get(pendingLink);
        assertEquals(200, late.status());
        assertTrue(late.body().contains("approval window passed"), late.body());
        assertFalse(late.hasButton("approve") || late.hasButton("sign-in"));

        // 25 hours after issue the key still works; 7 days after issue it stops, and the agent sees expired.
        assertEquals(200, platform.get("/api/mcp/session", key).status());
        clock().advance(Duration.ofDays(6));
        UUID trialId = UUID.fromString(trial.path("request_id").asText());
        awaitState(trialId, "expired");
        // The sweeper revokes the key right after it records the state.
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (platform.get("/api/mcp/session", key).status() != 401 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(401, platform.get("/api/mcp/session", key).status());
        TestResponse ended = Agent.status(platform, trialToken);
        assertEquals("expired", ended.json().path("state").asText());
        assertEquals("trial_ended", ended.json().path("reason").asText());
    }

    private static String state(UUID id) {
        return platform.jdbi().withHandle(h -> h.createQuery("SELECT state FROM trials.requests WHERE id = :id")
                .bind("id", id).mapTo(String.class).one());
    }

    private static void awaitState(UUID id, String wanted) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!wanted.equals(state(id))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("request " + id + " is " + state(id) + ", not " + wanted);
            }
            Thread.sleep(100);
        }
    }
}
