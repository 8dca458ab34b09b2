package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Known visitors over real HTTP (docs/chatbot.md, "Known visitors"): the site's HS256 identity token in the handshake,
 * every way of getting it wrong refused with its own code, a widget for signed-in visitors only, rotation of the
 * secret, and the verified visitor's conversation on their CRM contact (API and page), or unlinked without the CRM.
 */
@PlatformTest(plugins = {"crm", "chatbot"}, config = {"lnp.chatbot.limits.handshake_per_minute=1000"})
class KnownVisitorsTest {

    private final TestPlatform platform;
    private final ChatClient chat;

    KnownVisitorsTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void identityTokensAreCheckedAndEveryRefusalIsNamed() throws Exception {
        UUID ws = platform.createWorkspace("known-visitors");
        String admin = platform.fullAccessKey(ws);
        JsonNode widget = chat.createWidget(ws, "");
        String key = widget.get("key").asText();
        String id = widget.get("id").asText();
        assertFalse(widget.get("require_verified_identity").asBoolean());
        String secret = secret(id, admin);
        assertTrue(secret.length() >= 40, secret);
        // Only those who may change the widget read its secret.
        assertEquals(403, platform.get("/api/v1/chatbot/widgets/" + id + "/identity-secret",
                platform.key(ws, "chatbot.read")).status());
        assertEquals(404, platform.get("/api/v1/chatbot/widgets/" + UUID.randomUUID() + "/identity-secret", admin)
                .status());

        // No token: anonymous, as before.
        assertEquals(200, chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN, "").status());
        // A valid token.
        TestResponse known = handshake(key, sign(secret, claims(id, c -> { })));
        assertEquals(200, known.status(), known.toString());

        // Forged: signed with another secret.
        assertProblem(handshake(key, sign("whsec_" + "x".repeat(43), claims(id, c -> { }))), 401,
                "identity_token_invalid");
        // A valid signature over claims changed afterwards.
        String good = sign(secret, claims(id, c -> { }));
        String[] parts = good.split("\\.");
        String changed = parts[0] + "." + b64(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace("ada@example.com", "eve@example.com")) + "." + parts[2];
        assertProblem(handshake(key, changed), 401, "identity_token_invalid");
        // Expired.
        Instant past = Instant.now().minus(Duration.ofHours(2));
        assertProblem(handshake(key, sign(secret, claims(id, c -> c.issueTime(Date.from(past))
                .expirationTime(Date.from(past.plus(Duration.ofMinutes(10))))))), 401, "identity_token_expired");
        // For another widget: its own secret and audience.
        JsonNode other = chat.createWidget(ws, "");
        String otherId = other.get("id").asText();
        assertProblem(handshake(key, sign(secret(otherId, admin), claims(otherId, c -> { }))), 403,
                "identity_token_wrong_widget");
        // alg none, and an algorithm other than HS256.
        String none = b64("{\"alg\":\"none\"}") + "." + b64(claims(id, c -> { }).toString()) + ".";
        assertProblem(handshake(key, none), 401, "identity_token_algorithm");
        SignedJWT hs512 = new SignedJWT(new JWSHeader(JWSAlgorithm.HS512), claims(id, c -> { }));
        hs512.sign(new MACSigner((secret + secret).getBytes(StandardCharsets.UTF_8)));
        assertProblem(handshake(key, hs512.serialize()), 401, "identity_token_algorithm");
        // Required claims.
        for (String claim : new String[] {"sub", "email", "exp", "iat", "aud"}) {
            TestResponse r = handshake(key, sign(secret, claims(id, c -> c.claim(claim, null))));
            assertProblem(r, 401, "identity_token_claim_missing");
            assertTrue(r.json().get("detail").asText().contains(claim), r.toString());
        }
        assertProblem(handshake(key, sign(secret, claims(id, c -> c.claim("email", "not an address")))), 401,
                "identity_token_claim_invalid");
        // Longer than an hour.
        Instant now = Instant.now();
        assertProblem(handshake(key, sign(secret, claims(id, c -> c.issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofHours(2))))))), 401, "identity_token_lifetime");
        assertProblem(handshake(key, "garbage"), 401, "identity_token_invalid");
        // A refused token is never taken as anonymous: the same handshake without it would pass.
        TestResponse refused = handshake(key, "garbage");
        assertFalse(refused.json().has("session_id"));
        assertEquals(ChatClient.ORIGIN, refused.header("Access-Control-Allow-Origin").orElseThrow(),
                "the page can read why");
    }

    @Test
    void aWidgetForSignedInVisitorsRefusesAnonymousOnes() throws Exception {
        UUID ws = platform.createWorkspace("verified-only");
        String admin = platform.fullAccessKey(ws);
        JsonNode widget = chat.createWidget(ws, "");
        String key = widget.get("key").asText();
        String id = widget.get("id").asText();
        JsonNode anonymous = chat.session(key); // before the setting is on

        TestResponse patched = platform.patch("/api/v1/chatbot/widgets/" + id, admin,
                "{\"require_verified_identity\":true}");
        assertEquals(200, patched.status(), patched.toString());
        assertTrue(patched.data().get("require_verified_identity").asBoolean());
        assertEquals(422, platform.patch("/api/v1/chatbot/widgets/" + id, admin,
                "{\"require_verified_identity\":\"yes\"}").status());

        TestResponse refused = chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN, "");
        assertProblem(refused, 401, "identity_required");
        assertTrue(refused.json().get("detail").asText().contains("signed-in"), refused.toString());
        assertProblem(chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN, ",\"identity_token\":null"), 401,
                "identity_required");
        // Resuming the anonymous conversation is refused too, and the legacy key path does not get round it.
        assertProblem(chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN, ",\"session_id\":\""
                + anonymous.get("session_id").asText() + "\""), 401, "identity_required");
        TestResponse history = platform.send("GET", "/api/cxo/history?session_id=" + anonymous.get("session_id").asText()
                + "&api_key=" + key, null, null, Map.of("Origin", ChatClient.ORIGIN));
        assertProblem(history, 401, "identity_required");

        String secret = secret(id, admin);
        TestResponse ok = handshake(key, sign(secret, claims(id, c -> { })));
        assertEquals(200, ok.status(), ok.toString());
        assertEquals(202, chat.message(ok.json(), "Where is my order?", null).status());
    }

    @Test
    void rotatingTheSecretRefusesTokensSignedWithTheOldOne() throws Exception {
        UUID ws = platform.createWorkspace("identity-rotation");
        String admin = platform.fullAccessKey(ws);
        JsonNode widget = chat.createWidget(ws, "");
        String key = widget.get("key").asText();
        String id = widget.get("id").asText();
        String old = secret(id, admin);
        String oldToken = sign(old, claims(id, c -> { }));
        assertEquals(200, handshake(key, oldToken).status());

        TestResponse rotated = platform.post("/api/v1/chatbot/widgets/" + id + "/rotate-identity-secret", admin, null);
        assertEquals(200, rotated.status(), rotated.toString());
        String fresh = rotated.data().get("identity_secret").asText();
        assertNotEquals(old, fresh);
        assertEquals(fresh, secret(id, admin), "the secret read later is the new one");
        assertEquals(id, rotated.data().get("audience").asText());
        assertEquals(3600, rotated.data().get("max_lifetime_seconds").asInt());

        assertProblem(handshake(key, oldToken), 401, "identity_token_invalid");
        assertEquals(200, handshake(key, sign(fresh, claims(id, c -> { }))).status());

        // The widget's page in the console shows the secret and the audience to an admin, and rotates it too.
        TestPerson owner = platform.person(ws, "admin");
        TestPerson.Page page = owner.get("/console/chatbot/widgets/" + id);
        assertEquals(200, page.status(), page.body());
        assertTrue(page.body().contains(fresh), page.body());
        assertTrue(page.body().contains("Identity token audience"), page.body());
        TestPerson.Page rotatedOnPage = owner.post("/console/chatbot/widgets/" + id + "/rotate-identity-secret");
        assertEquals(303, rotatedOnPage.status(), rotatedOnPage.body());
        assertNotEquals(fresh, secret(id, admin));
        assertProblem(handshake(key, sign(fresh, claims(id, c -> { }))), 401, "identity_token_invalid");
        assertEquals(403, platform.post("/api/v1/chatbot/widgets/" + id + "/rotate-identity-secret",
                platform.key(ws, "chatbot.read"), null).status());
    }

    @Test
    void aVerifiedVisitorsConversationIsOnTheirContact() throws Exception {
        UUID ws = platform.createWorkspace("visitor-contact");
        String admin = platform.fullAccessKey(ws);
        JsonNode widget = chat.createWidget(ws, "");
        String key = widget.get("key").asText();
        String id = widget.get("id").asText();
        String secret = secret(id, admin);
        String email = "ada-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";

        TestResponse shake = handshake(key, sign(secret, claims(id, c -> c.claim("email", email)
                .claim("name", "Ada King Lovelace"))));
        assertEquals(200, shake.status(), shake.toString());
        String sessionId = shake.json().get("session_id").asText();
        assertEquals(202, chat.message(shake.json(), "Hello, it is Ada.", null).status());

        JsonNode contact = contactByEmail(admin, email);
        assertEquals("Ada King", contact.get("first_name").asText());
        assertEquals("Lovelace", contact.get("last_name").asText());
        String contactId = contact.get("id").asText();
        JsonNode linked = platform.get("/api/v1/crm/contacts/" + contactId + "/conversations", admin).data();
        assertEquals(1, linked.size(), linked.toString());
        assertEquals(sessionId, linked.get(0).get("id").asText());
        assertEquals("/app/chat/" + sessionId, linked.get(0).get("path").asText());
        assertEquals("Help", linked.get(0).get("title").asText());
        assertEquals(404, platform.get("/api/v1/crm/contacts/" + UUID.randomUUID() + "/conversations", admin).status());

        // The contact's page lists the chat with a link to the conversation in the chat inbox.
        TestPerson member = platform.person(ws, "admin");
        TestPerson.Page page = member.get("/app/crm/contacts/" + contactId);
        assertEquals(200, page.status(), page.body());
        assertTrue(page.body().contains("Conversations"), page.body());
        assertTrue(page.body().contains("href=\"/app/chat/" + sessionId + "\""), page.body());
        TestPerson.Page conversation = member.get("/app/chat/" + sessionId);
        assertEquals(200, conversation.status(), conversation.body());
        assertTrue(conversation.body().contains("Ada King Lovelace") && conversation.body().contains(email)
                && conversation.body().contains("confirmed by the site"), conversation.body());
        assertTrue(conversation.body().contains("Hello, it is Ada."), conversation.body());
        // An anonymous conversation that was never handed over is not in the inbox.
        String anonymous = chat.session(key).get("session_id").asText();
        assertEquals(404, member.get("/app/chat/" + anonymous).status());

        // A reload resumes the same conversation (no second link); the same address, another session of the
        // visitor, is linked to the same contact, not a new one.
        TestResponse again = handshake(key, sign(secret, claims(id, c -> c.claim("email", email))),
                ",\"session_id\":\"" + sessionId + "\"");
        assertEquals(sessionId, again.json().get("session_id").asText());
        TestResponse second = handshake(key, sign(secret, claims(id, c -> c.claim("email", email.toUpperCase()))));
        assertEquals(200, second.status(), second.toString());
        assertEquals(2, platform.get("/api/v1/crm/contacts/" + contactId + "/conversations", admin).data().size());
        assertEquals(1, platform.get("/api/v1/crm/contacts?search=" + email, admin).data().size());

        // Another visitor, or a signed-out tab, holding the id does not resume the known visitor's conversation.
        TestResponse eve = handshake(key, sign(secret, claims(id, c -> c.subject("user-eve")
                .claim("email", "eve@example.com"))), ",\"session_id\":\"" + sessionId + "\"");
        assertNotEquals(sessionId, eve.json().get("session_id").asText());
        TestResponse signedOut = chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN,
                ",\"session_id\":\"" + sessionId + "\"");
        assertNotEquals(sessionId, signedOut.json().get("session_id").asText());
    }

    @Test
    void withTheCrmSwitchedOffTheConversationWorksUnlinked() throws Exception {
        UUID ws = platform.createWorkspace("visitor-no-crm");
        String admin = platform.fullAccessKey(ws);
        JsonNode widget = chat.createWidget(ws, "");
        String key = widget.get("key").asText();
        String id = widget.get("id").asText();
        String secret = secret(id, admin);
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.workspaces SET disabled_modules = '{crm}' WHERE id = ?", ws));

        TestResponse shake = handshake(key, sign(secret, claims(id, c -> c.claim("email", "grace@example.com"))));
        assertEquals(200, shake.status(), shake.toString());
        assertEquals(202, chat.message(shake.json(), "Hello", null).status());
        UUID sessionId = UUID.fromString(shake.json().get("session_id").asText());
        assertNull(platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT contact_id FROM chatbot.sessions WHERE id = :id").bind("id", sessionId)
                .mapTo(UUID.class).one()));
        assertEquals("grace@example.com", platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT verified_email FROM chatbot.sessions WHERE id = :id").bind("id", sessionId)
                .mapTo(String.class).one()), "the conversation still knows who it is with");
        int contacts = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM crm.contacts WHERE workspace_id = :ws").bind("ws", ws).mapTo(Integer.class).one());
        assertEquals(0, contacts, "no contact is made in a workspace without the CRM");
    }

    // Helpers.

    private String secret(String widgetId, String admin) {
        TestResponse r = platform.get("/api/v1/chatbot/widgets/" + widgetId + "/identity-secret", admin);
        assertEquals(200, r.status(), r.toString());
        assertEquals("HS256", r.data().get("algorithm").asText());
        return r.data().get("identity_secret").asText();
    }

    /** Valid claims for Ada (five minutes), changed by {@code change}. */
    private static JWTClaimsSet claims(String widgetId, Consumer<JWTClaimsSet.Builder> change) {
        Instant now = Instant.now();
        var b = new JWTClaimsSet.Builder().subject("user-ada").audience(widgetId).claim("email", "ada@example.com")
                .claim("name", "Ada Lovelace").issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofMinutes(5))));
        change.accept(b);
        return b.build();
    }

    static String sign(String secret, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
        return jwt.serialize();
    }

    private TestResponse handshake(String key, String identityToken) {
        return handshake(key, identityToken, "");
    }

    private TestResponse handshake(String key, String identityToken, String extra) {
        return chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN, ",\"identity_token\":\"" + identityToken
                + "\"" + extra);
    }

    private JsonNode contactByEmail(String admin, String email) {
        JsonNode found = platform.get("/api/v1/crm/contacts?search=" + email, admin).data();
        assertEquals(1, found.size(), found.toString());
        return found.get(0);
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertProblem(TestResponse r, int status, String code) {
        assertEquals(status, r.status(), r.toString());
        assertEquals(code, r.json().get("code").asText(), r.toString());
        assertTrue(r.header("Content-Type").orElse("").startsWith("application/problem+json"), r.toString());
    }
}
