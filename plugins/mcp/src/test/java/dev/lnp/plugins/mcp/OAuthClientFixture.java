package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An MCP client speaking OAuth 2.1 to the platform over real HTTP, as an assistant does when given only the URL:
 * registers itself, sends a person (a {@link TestPerson}, signed in) to the consent page, exchanges the code with its
 * PKCE verifier and refreshes.
 */
final class OAuthClientFixture {

    static final String REDIRECT = "http://127.0.0.1:7777/callback";

    final TestPlatform platform;
    final String clientId;
    final String verifier;
    final String challenge;

    OAuthClientFixture(TestPlatform platform) {
        this.platform = platform;
        TestResponse registered = platform.send("POST", "/oauth/register", null,
                "{\"client_name\":\"Test assistant\",\"redirect_uris\":[\"" + REDIRECT + "\"]}", Map.of());
        assertEquals(201, registered.status(), registered.body());
        this.clientId = registered.json().path("client_id").asText();
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        this.verifier = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        this.challenge = s256(verifier);
    }

    /** A client known by its metadata document's URL (no registration). */
    OAuthClientFixture(TestPlatform platform, String documentUrl) {
        this.platform = platform;
        this.clientId = documentUrl;
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        this.verifier = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        this.challenge = s256(verifier);
    }

    static String s256(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    String base() {
        return "http://localhost:" + platform.port();
    }

    String resource() {
        return base() + "/api/mcp";
    }

    /** The authorization request's query, with {@code overrides} (a null value leaves a parameter out). */
    String authorizePath(String... overrides) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("response_type", "code");
        params.put("client_id", clientId);
        params.put("redirect_uri", REDIRECT);
        params.put("code_challenge", challenge);
        params.put("code_challenge_method", "S256");
        params.put("state", "state-123");
        params.put("resource", resource());
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            params.put(overrides[i], overrides[i + 1]);
        }
        return "/oauth/authorize?" + query(params);
    }

    /** The person opens the consent page and allows, leaving {@code scopes} checked (null: all it shows). */
    String consent(TestPerson person, UUID workspace, String scopeAsked, List<String> scopesChecked,
            String... moreFields) {
        TestPerson.Page page = person.get(authorizePath("scope", scopeAsked));
        assertEquals(200, page.status(), page.body());
        assertTrue(page.body().contains("Test assistant"), page.body());
        List<String> form = new ArrayList<>(List.of("response_type", "code", "client_id", clientId, "redirect_uri",
                REDIRECT, "code_challenge", challenge, "code_challenge_method", "S256", "state", "state-123",
                "workspace", workspace.toString(), "decision", "allow"));
        if (scopeAsked != null) {
            form.addAll(List.of("scope", scopeAsked));
        }
        for (String scope : scopesChecked) {
            form.addAll(List.of("grant_scope", scope));
        }
        form.addAll(List.of(moreFields));
        TestPerson.Page decided = person.post("/oauth/authorize", form.toArray(String[]::new));
        assertEquals(303, decided.status(), decided.body());
        Map<String, String> back = params(decided.location());
        assertTrue(decided.location().startsWith(REDIRECT + "?"), decided.location());
        assertEquals("state-123", back.get("state"));
        assertEquals(base(), back.get("iss"));
        assertNotNull(back.get("code"));
        return back.get("code");
    }

    TestResponse token(String... namesAndValues) {
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            params.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return platform.send("POST", "/oauth/token", null, query(params),
                Map.of("Content-Type", "application/x-www-form-urlencoded"));
    }

    TestResponse exchange(String code) {
        return token("grant_type", "authorization_code", "code", code, "redirect_uri", REDIRECT, "client_id",
                clientId, "code_verifier", verifier, "resource", resource());
    }

    TestResponse refresh(String refreshToken) {
        return token("grant_type", "refresh_token", "refresh_token", refreshToken, "client_id", clientId);
    }

    /** The whole flow for {@code person}: the token response. */
    JsonNode connect(TestPerson person, UUID workspace, String scopeAsked, List<String> scopesChecked) {
        TestResponse tokens = exchange(consent(person, workspace, scopeAsked, scopesChecked));
        assertEquals(200, tokens.status(), tokens.body());
        assertEquals("no-store", tokens.header("Cache-Control").orElse(""));
        return tokens.json();
    }

    static Map<String, String> params(String url) {
        Map<String, String> params = new LinkedHashMap<>();
        String query = URI.create(url).getRawQuery();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            params.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }

    static String query(Map<String, String> params) {
        List<String> pairs = new ArrayList<>();
        params.forEach((k, v) -> {
            if (v != null) {
                pairs.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
        });
        return String.join("&", pairs);
    }
}
