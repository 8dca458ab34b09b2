package dev.lnp.api;

import dev.lnp.api.events.EventType;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.mcp.ToolDescriptor;

/**
 * Where a plugin declares what it contributes. Everything declared here is recorded against the plugin's id,
 * so the registry can list (and the operator can disable) a plugin's contributions as a unit.
 */
public interface Registrar {

    /** The id of the plugin that is registering. */
    String pluginId();

    /** Declares a permission scope, e.g. {@code contacts.read}. Read scopes end in {@code .read}. */
    Registrar scope(String name, String description);

    Registrar route(RouteSpec route);

    Registrar tool(ToolDescriptor tool);

    Registrar event(EventType eventType);

    /**
     * Declares this plugin's Flyway migrations: scripts under {@code db/migration/<pluginId>} in the plugin's
     * own class path, applied to {@code schema} with a history table of their own.
     */
    Registrar migrations(String schema);

    /** Offers a service to other plugins (e.g. "look up a project"); they find it through {@link PluginContext}. */
    <T> Registrar provide(Class<T> type, T implementation);
}
