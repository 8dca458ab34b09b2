package dev.lnp.core.plugins;

import dev.lnp.api.PluginContext;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@link PluginContext} a plugin gets at registration ({@code Registrar.context()}): it forwards every call to
 * the real context once the platform has one, and before that fails saying so, naming the plugin.
 */
final class LazyPluginContext implements PluginContext {

    private final String pluginId;
    private final PluginRegistry registry;

    LazyPluginContext(String pluginId, PluginRegistry registry) {
        this.pluginId = pluginId;
        this.registry = registry;
    }

    private PluginContext target() {
        PluginContext context = registry.startedContext();
        if (context == null) {
            throw new IllegalStateException("plugin " + pluginId + " asked its context for something before the platform"
                    + " started plugins; look services up in a handler, a tool or start(), not in register()");
        }
        return context;
    }

    @Override
    public <T> Optional<T> service(Class<T> type) {
        return target().service(type);
    }

    @Override
    public <R> R inWorkspace(UUID workspaceId, WorkspaceWork<R> work) {
        return target().inWorkspace(workspaceId, work);
    }

    @Override
    public <R> R outsideWorkspace(WorkspaceWork<R> work) {
        return target().outsideWorkspace(work);
    }

    @Override
    public <R> R acrossWorkspaces(java.util.function.Function<org.jdbi.v3.core.Handle, R> work) {
        return target().acrossWorkspaces(work);
    }

    @Override
    public Optional<String> config(String key) {
        return target().config(key);
    }
}
