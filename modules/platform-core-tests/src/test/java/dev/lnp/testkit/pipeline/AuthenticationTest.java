package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@PlatformTest(plugins = "probe")
class AuthenticationTest {

    private static void assertUnauthorized(TestResponse response, String code) {
        assertEquals(401, response.status(), response.body());
        assertEquals(code, response.json().path("code").asText(), response.body());
        assertTrue(response.header("WWW-Authenticate").orElse("").startsWith("Bearer realm=\"lnp\""),
                "WWW-Authenticate on " + response);
        assertTrue(response.header("Content-Type").orElseThrow().startsWith("application/problem+json"));
    }

    private static TestResponse withAuthorization(TestPlatform platform, String value) {
        return platform.send("GET", "/api/v1/probe/items", null, null, Map.of("Authorization", value));
    }

    @Test
    void missingHeaderIs401(TestPlatform platform) {
        assertUnauthorized(platform.get("/api/v1/probe/items", null), "missing_credentials");
    }

    @Test
    void aValidKeyWorksAndTheSchemeIsCaseInsensitive(TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("ok"), "probe.read");
        assertEquals(200, withAuthorization(platform, "Bearer " + key).status());
        assertEquals(200, withAuthorization(platform, "bearer " + key).status());
        assertEquals(200, withAuthorization(platform, "BEARER  " + key).status());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bearer Bearer %s", "Bearer \"%s\"", "Bearer '%s'", "Basic %s", "Token %s", "%s",
            "Bearer", "Bearer %s extra"})
    void malformedHeadersAre401(String template, TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("bad"), "probe.read");
        TestResponse response = withAuthorization(platform, template.formatted(key));
        assertEquals(401, response.status(), template + " -> " + response);
        assertTrue(response.header("WWW-Authenticate").isPresent());
    }

    @Test
    void unknownKeysAre401(TestPlatform platform) {
        assertUnauthorized(withAuthorization(platform, "Bearer lnp_" + "A".repeat(43)), "invalid_key");
        assertUnauthorized(withAuthorization(platform, "Bearer wks_" + "B".repeat(30)), "invalid_key");
        assertUnauthorized(withAuthorization(platform, "Bearer sk_live_abcdefghijklmnopqrstuvwxyz"), "invalid_key");
    }

    @Test
    void revokedKeyIs401Immediately(TestPlatform platform) {
        UUID ws = platform.createWorkspace("rev");
        var issued = platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(ws, "c",
                java.util.List.of("probe.read"), null, null, null));
        assertEquals(200, platform.get("/api/v1/probe/items", issued.key()).status());
        platform.connections().revoke(issued.connectionId());
        assertUnauthorized(platform.get("/api/v1/probe/items", issued.key()), "revoked_key");
    }

    @Test
    void expiredKeyIs401(TestPlatform platform) {
        UUID ws = platform.createWorkspace("exp");
        var issued = platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(ws, "c",
                java.util.List.of("probe.read"), null, java.time.Instant.now().plusSeconds(3600), null));
        assertEquals(200, platform.get("/api/v1/probe/items", issued.key()).status());
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.connections SET expires_at = now() - interval '1 second' WHERE id = ?",
                issued.connectionId()));
        assertUnauthorized(platform.get("/api/v1/probe/items", issued.key()), "expired_key");
    }

    @Test
    void aKeyInTheQueryStringIsNeverAccepted(TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("q"), "probe.read");
        assertUnauthorized(platform.get("/api/v1/probe/items?api_key=" + key, null), "missing_credentials");
        TestResponse both = platform.get("/api/v1/probe/items?api_key=" + key, key);
        assertEquals(400, both.status(), both.body());
        assertFalse(both.body().contains(key), "the key is never echoed");
    }

    @Test
    void rotationKeepsTheIdentityAndHonoursTheGracePeriod(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("rot");
        var first = platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(ws, "c",
                java.util.List.of("probe.read"), null, null, null));
        var rotated = platform.connections().rotate(first.connectionId(), java.time.Duration.ofSeconds(2));
        assertEquals(first.connectionId(), rotated.connectionId());
        assertEquals(first.identityId(), rotated.identityId());
        assertEquals(200, platform.get("/api/v1/probe/items", first.key()).status(), "old key works during grace");
        assertEquals(200, platform.get("/api/v1/probe/items", rotated.key()).status());
        Thread.sleep(2_200);
        assertUnauthorized(platform.get("/api/v1/probe/items", first.key()), "expired_key");
        assertEquals(200, platform.get("/api/v1/probe/items", rotated.key()).status());

        var immediate = platform.connections().rotate(first.connectionId(), java.time.Duration.ZERO);
        assertUnauthorized(platform.get("/api/v1/probe/items", rotated.key()), "expired_key");
        assertEquals(200, platform.get("/api/v1/probe/items", immediate.key()).status());
    }

    @Test
    void newKeysHaveTheDocumentedShapeAndOnlyAHashIsStored(TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("shape"), "probe.read");
        assertTrue(key.matches("lnp_[A-Za-z0-9_-]{43}"), key);
        long plain = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM lnp_core.api_keys WHERE display_prefix = :k OR encode(key_hash, 'escape') LIKE '%' || :k || '%'")
                .bind("k", key).mapTo(Long.class).one());
        assertEquals(0, plain);
    }
}
