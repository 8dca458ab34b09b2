package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.core.auth.Connections;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.RateWindows;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A read admitted from the node's admission cache: its transaction's first statement re-checks the admission, so
 * whatever another node (here: plain SQL) changes about the key, its connection, workspace or delegated user takes
 * effect on the very next request, with the answer a fresh admission gives.
 */
@PlatformTest(plugins = "probe")
class AdmissionCacheTest {

    private static final String ITEMS = "/api/v1/probe/items";

    /** Each test counts admissions served from the cache, which needs its reads' rate positions in one lease. */
    @BeforeEach
    void notAcrossAMinuteTurn() {
        RateWindows.stayInOneMinute(10);
    }

    @Test
    void readsAfterTheFirstAreAdmittedFromTheCacheAndWritesNever(TestPlatform platform) {
        var issued = connection(platform, platform.createWorkspace("cached reads"), null);
        long cachedBefore = platform.admissions("cache");
        long databaseBefore = platform.admissions("database");
        for (int i = 0; i < 5; i++) {
            assertEquals(200, platform.get(ITEMS, issued.key()).status());
        }
        // The first two reserve rate positions (one, then a run of them), which only the statement can do.
        assertEquals(3, platform.admissions("cache") - cachedBefore);
        assertEquals(2, platform.admissions("database") - databaseBefore);

        assertEquals(201, platform.post(ITEMS, issued.key(), "{\"name\":\"one\"}").status());
        assertEquals(3, platform.admissions("database") - databaseBefore, "a write is admitted by its statement");
        assertEquals(3, platform.admissions("cache") - cachedBefore);
    }

    @Test
    void aRevokedConnectionIs401OnTheNextRead(TestPlatform platform) {
        var issued = cachedKey(platform, "revoked");
        long staleBefore = platform.admissions("cache_stale");
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET revoked_at = now() WHERE id = ?",
                issued.connectionId()));
        TestResponse answer = platform.get(ITEMS, issued.key());
        assertEquals(401, answer.status(), answer.body());
        assertEquals("revoked_key", answer.json().path("code").asText());
        assertEquals(1, platform.admissions("cache_stale") - staleBefore);
        assertEquals(401, platform.get(ITEMS, issued.key()).status(), "and on the one after");
    }

    /** The key's own row changes (a rotation revoking the old secret): its connection stays as it was. */
    @Test
    void aRevokedKeyIs401OnTheNextRead(TestPlatform platform) {
        var issued = cachedKey(platform, "revoked key");
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.api_keys SET revoked_at = now() WHERE connection_id = ?", issued.connectionId()));
        TestResponse answer = platform.get(ITEMS, issued.key());
        assertEquals(401, answer.status(), answer.body());
        assertEquals("revoked_key", answer.json().path("code").asText());
    }

    @Test
    void aDeletedKeyIs401OnTheNextRead(TestPlatform platform) {
        var issued = cachedKey(platform, "deleted");
        platform.jdbi().useHandle(h -> h.execute("DELETE FROM lnp_core.api_keys WHERE connection_id = ?",
                issued.connectionId()));
        TestResponse answer = platform.get(ITEMS, issued.key());
        assertEquals(401, answer.status(), answer.body());
        assertEquals("invalid_key", answer.json().path("code").asText());
    }

    @Test
    void aKeyPastItsValidityIs401WithoutAnyChangeToCheck(TestPlatform platform) {
        var issued = cachedKey(platform, "expired");
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.api_keys SET valid_until = now() - interval '1 second' WHERE connection_id = ?",
                issued.connectionId()));
        TestResponse answer = platform.get(ITEMS, issued.key());
        assertEquals(401, answer.status(), answer.body());
        assertEquals("expired_key", answer.json().path("code").asText());
    }

    @Test
    void aScopeTakenAwayIs403OnTheNextRead(TestPlatform platform) {
        UUID ws = platform.createWorkspace("scopes");
        var issued = platform.connections().create(new Connections.NewConnection(ws, "reader",
                List.of("probe.read"), null, null, null));
        for (int i = 0; i < 3; i++) {
            assertEquals(200, platform.get(ITEMS, issued.key()).status());
        }
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.connections SET scopes = '{probe.write}' WHERE id = ?", issued.connectionId()));
        TestResponse answer = platform.get(ITEMS, issued.key());
        assertEquals(403, answer.status(), answer.body());
        assertEquals("missing_scope", answer.json().path("code").asText());
    }

    /** A write is admitted by its statement, which reuses the principal it built only while nothing changed. */
    @Test
    void aScopeTakenAwayIs403OnTheNextWrite(TestPlatform platform) {
        UUID ws = platform.createWorkspace("write scopes");
        var issued = platform.connections().create(new Connections.NewConnection(ws, "writer",
                List.of("probe.read", "probe.write"), null, null, null));
        for (int i = 0; i < 3; i++) {
            assertEquals(201, platform.post(ITEMS, issued.key(), "{\"name\":\"w" + i + "\"}").status());
        }
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.connections SET scopes = '{probe.read}' WHERE id = ?", issued.connectionId()));
        TestResponse answer = platform.post(ITEMS, issued.key(), "{\"name\":\"refused\"}");
        assertEquals(403, answer.status(), answer.body());
        assertEquals("missing_scope", answer.json().path("code").asText());
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.connections SET scopes = '{probe.read,probe.write}' WHERE id = ?",
                issued.connectionId()));
        assertEquals(201, platform.post(ITEMS, issued.key(), "{\"name\":\"again\"}").status());
    }

    @Test
    void aModuleSwitchedOffForTheWorkspaceIs404OnTheNextRead(TestPlatform platform) {
        var issued = cachedKey(platform, "module off");
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.workspaces SET disabled_modules = '{probe}' WHERE id = ?", issued.workspaceId()));
        assertEquals(404, platform.get(ITEMS, issued.key()).status());
    }

    @Test
    void aDelegatedUsersNewRoleAppliesToTheNextRead(TestPlatform platform) {
        UUID ws = platform.createWorkspace("delegated");
        UUID member = platform.workspaces().addUser(ws, "member@cache.test", "member");
        var issued = connection(platform, ws, member);
        for (int i = 0; i < 3; i++) {
            assertEquals("member", platform.get("/api/v1/probe/whoami", issued.key()).data().path("role").asText());
        }
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.users SET role = 'admin' WHERE id = ?", member));
        assertEquals("admin", platform.get("/api/v1/probe/whoami", issued.key()).data().path("role").asText());
    }

    @Test
    void aChangeThatKeepsTheKeyValidIsAdmittedAgainAndAnswered(TestPlatform platform) {
        var issued = cachedKey(platform, "raised limit");
        long staleBefore = platform.admissions("cache_stale");
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.connections SET rest_per_minute = 900 WHERE id = ?", issued.connectionId()));
        TestResponse answer = platform.get(ITEMS, issued.key());
        assertEquals(200, answer.status(), answer.body());
        assertTrue(answer.header("RateLimit-Policy").orElseThrow().contains("q=900"), answer.toString());
        assertEquals(1, platform.admissions("cache_stale") - staleBefore);
        long cachedBefore = platform.admissions("cache");
        assertEquals(200, platform.get(ITEMS, issued.key()).status());
        assertEquals(1, platform.admissions("cache") - cachedBefore, "the fresh admission is cached again");
    }

    /** The workspace's quotas are part of every admission of its keys. */
    @Test
    void aNewQuotaForTheWorkspaceIsAdmittedAgain(TestPlatform platform) {
        var issued = cachedKey(platform, "quota");
        long staleBefore = platform.admissions("cache_stale");
        platform.setQuota(issued.workspaceId(), "crm", 5);
        assertEquals(200, platform.get(ITEMS, issued.key()).status());
        assertEquals(1, platform.admissions("cache_stale") - staleBefore);
    }

    /**
     * The check reads the workspace's admission version: columns that change without changing an admission (a
     * key's last use, a connection's tool-call count), new keys and connections, and changes in another
     * workspace leave it, so the cached admission keeps serving.
     */
    @Test
    void changesNoAdmissionIsMadeOfKeepTheCachedAdmission(TestPlatform platform) {
        var issued = cachedKey(platform, "unchanged");
        var other = cachedKey(platform, "other workspace");
        long cachedBefore = platform.admissions("cache");
        long staleBefore = platform.admissions("cache_stale");
        platform.jdbi().useHandle(h -> {
            h.execute("UPDATE lnp_core.api_keys SET last_used_at = now() - interval '1 hour' WHERE connection_id = ?",
                    issued.connectionId());
            h.execute("UPDATE lnp_core.connections SET tool_calls_used = tool_calls_used + 1 WHERE id = ?",
                    issued.connectionId());
            h.execute("UPDATE lnp_core.connections SET revoked_at = now() WHERE id = ?", other.connectionId());
        });
        connection(platform, issued.workspaceId(), null);
        assertEquals(200, platform.get(ITEMS, issued.key()).status());
        assertEquals(1, platform.admissions("cache") - cachedBefore);
        assertEquals(0, platform.admissions("cache_stale") - staleBefore);
        assertEquals(401, platform.get(ITEMS, other.key()).status(), "the other workspace's change applies there");
    }

    /** Deleting the workspace deletes its keys with it: the key is unknown on the next read. */
    @Test
    void aDeletedWorkspacesKeyIs401OnTheNextRead(TestPlatform platform) {
        var issued = cachedKey(platform, "deleted workspace");
        platform.jdbi().useHandle(h -> h.execute("DELETE FROM lnp_core.workspaces WHERE id = ?",
                issued.workspaceId()));
        TestResponse answer = platform.get(ITEMS, issued.key());
        assertEquals(401, answer.status(), answer.body());
        assertEquals("invalid_key", answer.json().path("code").asText());
    }

    @Test
    void aWriteWithABodyIsAdmittedAgainWithoutReadingItsBodyTwice(TestPlatform platform) {
        var issued = cachedKey(platform, "patched");
        String id = platform.post(ITEMS, issued.key(), "{\"name\":\"before\"}").data().path("id").asText();
        for (int i = 0; i < 2; i++) {
            assertEquals(200, platform.get(ITEMS, issued.key()).status());
        }
        long staleBefore = platform.admissions("cache_stale");
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.connections SET rest_per_minute = 900 WHERE id = ?", issued.connectionId()));
        TestResponse patched = platform.patch(ITEMS + "/" + id, issued.key(), "{\"name\":\"after\"}");
        assertEquals(200, patched.status(), patched.body());
        assertEquals("after", patched.data().path("name").asText(), patched.body());
        assertEquals(1, platform.admissions("cache_stale") - staleBefore, "admitted from the cache, then again");
    }

    /**
     * A body refused before any transaction checked the admission is refused again after the re-admission, from
     * the bytes already read: a second read of the request's stream would find it empty (400 unreadable_body).
     */
    @Test
    void aRefusedBodyIsRefusedAgainAfterAStaleAdmission(TestPlatform platform) {
        var issued = cachedKey(platform, "refused body");
        String id = platform.post(ITEMS, issued.key(), "{\"name\":\"kept\"}").data().path("id").asText();
        for (int i = 0; i < 2; i++) {
            assertEquals(200, platform.get(ITEMS, issued.key()).status());
        }
        long staleBefore = platform.admissions("cache_stale");
        raiseLimit(platform, issued);
        TestResponse invalid = platform.patch(ITEMS + "/" + id, issued.key(), "{\"name\":5}");
        assertEquals(422, invalid.status(), invalid.body());
        assertEquals("/name", invalid.json().path("errors").path(0).path("pointer").asText(), invalid.body());

        raiseLimit(platform, issued);
        TestResponse malformed = platform.patch(ITEMS + "/" + id, issued.key(), "{\"name\":");
        assertEquals(400, malformed.status(), malformed.body());
        assertEquals("invalid_json", malformed.json().path("code").asText(), malformed.body());
        assertEquals(2, platform.admissions("cache_stale") - staleBefore, "both were admitted from the cache first");
        assertEquals("kept", platform.get(ITEMS + "/" + id, issued.key()).data().path("name").asText());
    }

    /** Another node (here: plain SQL) changes the key's connection: its next request finds its admission stale. */
    private static void raiseLimit(TestPlatform platform, Issued issued) {
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.connections SET rest_per_minute = coalesce(rest_per_minute, 900) + 1 WHERE id = ?",
                issued.connectionId()));
    }

    @Test
    void aRevokedKeyIsTold401RatherThanItsRequestsOtherError(TestPlatform platform) {
        var query = cachedKey(platform, "bad query");
        revoke(platform, query);
        TestResponse badQuery = platform.get(ITEMS + "?unknown=1", query.key());
        assertEquals(401, badQuery.status(), badQuery.body());

        var body = cachedKey(platform, "bad body");
        revoke(platform, body);
        TestResponse badBody = platform.patch(ITEMS + "/" + UUID.randomUUID(), body.key(), "{\"name\":5}");
        assertEquals(401, badBody.status(), badBody.body());

        UUID ws = platform.createWorkspace("no scope");
        var reader = platform.connections().create(new Connections.NewConnection(ws, "reader",
                List.of("probe.read"), null, null, null));
        for (int i = 0; i < 3; i++) {
            assertEquals(200, platform.get(ITEMS, reader.key()).status());
        }
        revoke(platform, new Issued(reader.key(), reader.connectionId(), ws));
        TestResponse outOfScope = platform.patch(ITEMS + "/" + UUID.randomUUID(), reader.key(), "{\"name\":\"x\"}");
        assertEquals(401, outOfScope.status(), outOfScope.body());
        assertEquals("revoked_key", outOfScope.json().path("code").asText());
    }

    private static void revoke(TestPlatform platform, Issued issued) {
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET revoked_at = now() WHERE id = ?",
                issued.connectionId()));
    }

    private record Issued(String key, UUID connectionId, UUID workspaceId) {
    }

    /** A key whose admission this node has cached (three reads: the third came from the cache). */
    private static Issued cachedKey(TestPlatform platform, String name) {
        UUID ws = platform.createWorkspace(name);
        var issued = connection(platform, ws, null);
        long cachedBefore = platform.admissions("cache");
        for (int i = 0; i < 3; i++) {
            assertEquals(200, platform.get(ITEMS, issued.key()).status());
        }
        assertEquals(1, platform.admissions("cache") - cachedBefore, "the third read came from the cache");
        return new Issued(issued.key(), issued.connectionId(), ws);
    }

    private static Connections.Issued connection(TestPlatform platform, UUID ws, UUID delegatedUser) {
        return platform.connections().create(new Connections.NewConnection(ws, "cached", List.of(), "full-access",
                null, delegatedUser));
    }
}
