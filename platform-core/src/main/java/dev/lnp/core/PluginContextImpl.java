package dev.lnp.core;

import dev.lnp.api.PluginContext;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.db.WorkspaceTransactions;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * What a started plugin can reach of the platform outside a request.
 *
 * @param platformServices services the core itself offers to plugins (e.g. the tool gateway), by API type
 */
public record PluginContextImpl(PluginRegistry registry, WorkspaceTransactions transactions, PlatformConfig config,
        Map<Class<?>, Object> platformServices) implements PluginContext {

    public PluginContextImpl {
        platformServices = Map.copyOf(platformServices);
    }

    @Override
    public <T> Optional<T> service(Class<T> type) {
        Object own = platformServices.get(type);
        return own != null ? Optional.of(type.cast(own)) : registry.service(type);
    }

    @Override
    public <R> R inWorkspace(UUID workspaceId, WorkspaceWork<R> work) {
        return transactions.inWorkspace(workspaceId, work);
    }

    @Override
    public <R> R outsideWorkspace(WorkspaceWork<R> work) {
        return transactions.outsideWorkspace(work);
    }

    @Override
    public <R> R acrossWorkspaces(java.util.function.Function<org.jdbi.v3.core.Handle, R> work) {
        return transactions.acrossWorkspaces(work);
    }

    @Override
    public Optional<String> config(String key) {
        return config.get(key);
    }
}
