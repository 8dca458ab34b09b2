package dev.lnp.core.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.PluginContext;
import dev.lnp.api.Registrar;
import dev.lnp.api.workspace.WorkspaceTx;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The context a plugin keeps from registration resolves each lookup when it is made, and fails clearly before start. */
class RegistrarContextTest {

    interface Greeter {
        String greet();
    }

    private static final class Holder implements PlatformPlugin {
        final AtomicReference<PluginContext> context = new AtomicReference<>();

        @Override
        public void register(Registrar registrar) {
            context.set(registrar.context());
        }
    }

    private record FixedContext(Map<Class<?>, Object> services, Map<String, String> config) implements PluginContext {
        @Override
        public <T> Optional<T> service(Class<T> type) {
            return Optional.ofNullable(type.cast(services.get(type)));
        }

        @Override
        public <R> R inWorkspace(UUID workspaceId, WorkspaceWork<R> work) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <R> R outsideWorkspace(WorkspaceWork<R> work) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <R> R acrossWorkspaces(java.util.function.Function<org.jdbi.v3.core.Handle, R> work) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<String> config(String key) {
            return Optional.ofNullable(config.get(key));
        }
    }

    @Test
    void beforeStartEveryLookupFailsNamingThePlugin() {
        var registry = new PluginRegistry();
        var plugin = new Holder();
        registry.register("notes", plugin);
        PluginContext context = plugin.context.get();

        var error = assertThrows(IllegalStateException.class, () -> context.service(Greeter.class));
        assertTrue(error.getMessage().contains("plugin notes"), error.getMessage());
        assertTrue(error.getMessage().contains("before the platform started plugins"), error.getMessage());
        assertThrows(IllegalStateException.class, () -> context.require(Greeter.class));
        assertThrows(IllegalStateException.class, () -> context.config("lnp.notes.size"));
        assertThrows(IllegalStateException.class, () -> context.inWorkspace(UUID.randomUUID(), (WorkspaceTx tx) -> 1));
    }

    @Test
    void afterStartLookupsResolveThroughTheStartedContext() {
        var registry = new PluginRegistry();
        var plugin = new Holder();
        registry.register("notes", plugin);
        Greeter greeter = () -> "hello";
        registry.contextReady(new FixedContext(Map.of(Greeter.class, greeter), Map.of("lnp.notes.size", "7")));

        PluginContext context = plugin.context.get();
        assertEquals("hello", context.require(Greeter.class).greet());
        assertEquals(Optional.of("7"), context.config("lnp.notes.size"));
        assertEquals(Optional.empty(), context.service(Runnable.class));
        var missing = assertThrows(IllegalStateException.class, () -> context.require(Runnable.class));
        assertTrue(missing.getMessage().contains("java.lang.Runnable"), missing.getMessage());
    }

    @Test
    void onlyThePlatformsRegistrarSubscribesToEvents() {
        var registry = new PluginRegistry();
        registry.register("notes", registrar -> dev.lnp.api.internal.events.Subscriptions.of(registrar)
                .subscribe("notes.note.created", event -> { }));
        assertEquals(1, registry.subscriptions().size());

        Registrar foreign = (Registrar) java.lang.reflect.Proxy.newProxyInstance(Registrar.class.getClassLoader(),
                new Class<?>[] {Registrar.class}, (proxy, method, args) -> "notes");
        var error = assertThrows(IllegalStateException.class,
                () -> dev.lnp.api.internal.events.Subscriptions.of(foreign));
        assertTrue(error.getMessage().contains("plugin notes"), error.getMessage());
    }
}
