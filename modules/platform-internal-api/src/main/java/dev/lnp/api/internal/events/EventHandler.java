package dev.lnp.api.internal.events;

/**
 * Receives events published by any plugin, in the order they were written, at least once, after their
 * transaction committed. Called on a platform thread outside any transaction: open one with
 * {@code PluginContext.inWorkspace(event.workspaceId(), …)}. A handler that throws gets the same event again later.
 */
@FunctionalInterface
public interface EventHandler {
    void handle(DeliveredEvent event) throws Exception;
}
