package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.core.BackgroundTask;
import dev.lnp.core.Platform;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.LoadedPlugin;
import dev.lnp.testkit.TestDatabases;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code platform serve} loads the plugins on their own thread while the pool opens. A failure on either side must
 * end the start as it did when the plugins loaded first: the same exception, the plugins' before the database's,
 * and everything started closed, the plugin class loaders only once their loading has ended.
 */
class PluginLoadingBesidePoolTest {

    private final IllegalStateException pluginFailure = new IllegalStateException("Plugin broken did not start: FAILED");

    @Test
    void aPluginLoadingFailureIsTheStartsFailureAndClosesThePool() throws Exception {
        String url = TestDatabases.createDatabase("loadfail");
        try {
            List<String> events = new CopyOnWriteArrayList<>();
            BackgroundTask<List<LoadedPlugin>> loading = BackgroundTask.start("test-plugin-loading", () -> {
                pause(300); // still loading while the pool opens
                throw pluginFailure;
            });
            var failure = assertThrows(IllegalStateException.class,
                    () -> Platform.start(config(url, Map.of()), loading, () -> events.add("class loaders unloaded")));
            assertSame(pluginFailure, failure, "the loading's own exception, not wrapped");
            assertEquals(List.of("class loaders unloaded"), events);
            assertEquals(0, TestDatabases.sessionsLeftOn(url), "the pool opened meanwhile was closed");
        } finally {
            TestDatabases.dropDatabase(url);
        }
    }

    @Test
    void whenTheDatabaseSetUpFailsTooThePluginFailureStillComesFirst() {
        var invalidPool = config("jdbc:postgresql://127.0.0.1:1/none", Map.of("lnp.database.pool.size", "1"));
        var failure = assertThrows(IllegalStateException.class, () -> Platform.start(invalidPool,
                BackgroundTask.start("test-plugin-loading", () -> {
                    pause(300);
                    throw pluginFailure;
                }), () -> { }));
        assertSame(pluginFailure, failure, "loaded first before, so reported first");
        assertEquals(1, failure.getSuppressed().length, "the database's failure is attached");
        assertTrue(failure.getSuppressed()[0].getMessage().startsWith("lnp.database.pool.size is 1"),
                failure.getSuppressed()[0].getMessage());
    }

    @Test
    void aDatabaseSetUpFailureUnloadsThePluginsOnlyOnceTheirLoadingHasEnded() {
        var invalidPool = config("jdbc:postgresql://127.0.0.1:1/none", Map.of("lnp.database.pool.size", "1"));
        List<String> events = new CopyOnWriteArrayList<>();
        var failure = assertThrows(IllegalStateException.class, () -> Platform.start(invalidPool,
                BackgroundTask.start("test-plugin-loading", () -> {
                    pause(300);
                    events.add("plugins loaded");
                    return List.<LoadedPlugin>of();
                }), () -> events.add("class loaders unloaded")));
        assertEquals("lnp.database.pool.size is 1: it must be at least 2 (a start's migrations hold two connections"
                + " at once)", failure.getMessage(), "the same message as with the plugins loaded first");
        assertArrayEquals(new Throwable[0], failure.getSuppressed());
        assertEquals(List.of("plugins loaded", "class loaders unloaded"), events);
    }

    private static PlatformConfig config(String url, Map<String, String> more) {
        var server = TestDatabases.server();
        var overrides = new java.util.HashMap<>(Map.of("lnp.database.url", url, "lnp.database.user", server.user(),
                "lnp.database.password", server.password(), "lnp.http.port", "0", "lnp.management.port", "0"));
        overrides.putAll(more);
        return PlatformConfig.load(null, Map.of(), overrides);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
