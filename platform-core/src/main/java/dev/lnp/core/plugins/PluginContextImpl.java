package dev.lnp.core.plugins;

import dev.lnp.api.PluginContext;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.db.WorkspaceTransactions;
import java.util.Optional;
import java.util.UUID;

/** What a started plugin can reach of the platform outside a request. */
public record PluginContextImpl(PluginRegistry registry, WorkspaceTransactions transactions, PlatformConfig config)
        implements PluginContext {

    @Override
    public <T> Optional<T> service(Class<T> type) {
        return registry.service(type);
    }

    @Override
    public <R> R inWorkspace(UUID workspaceId, WorkspaceWork<R> work) {
        return transactions.inWorkspace(workspaceId, work);
    }

    @Override
    public Optional<String> config(String key) {
        return config.get(key);
    }
}
