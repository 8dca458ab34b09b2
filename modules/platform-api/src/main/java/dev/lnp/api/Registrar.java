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

    /**
     * Declares a permission scope, e.g. {@code contacts.read}, that every role of a workspace may hold (members,
     * admins and owners). Read scopes end in {@code .read}.
     */
    default Registrar scope(String name, String description) {
        return scope(name, description, dev.lnp.api.workspace.Role.MEMBER);
    }

    /**
     * Declares a permission scope that only people of {@code weakestRole} or a stronger one may hold or delegate
     * (a key delegated to a member never acts with an {@code ADMIN} scope, and neither does the member's console
     * session): for workspace-wide integration settings such as where the workspace's events are sent.
     */
    Registrar scope(String name, String description, dev.lnp.api.workspace.Role weakestRole);

    /**
     * Declares a monthly quota counter this plugin's routes and tools may consume ({@link RouteSpec.Builder#quota},
     * {@link ToolDescriptor#quota()}): each successful call takes one unit for the caller's workspace, and the
     * 429 {@code quota_exceeded} answer comes once the month's units are used. The name is lowercase
     * ({@code [a-z][a-z0-9_]*}, at most 63 characters) and belongs to this plugin alone. A deployment changes the
     * default with {@code lnp.quotas.<name>.monthly}; a workspace can have its own limit (a row in
     * {@code lnp_core.workspace_quotas}). A route or tool naming a quota its plugin did not declare fails start-up.
     *
     * @param defaultMonthly units per workspace per calendar month (UTC) unless the deployment says otherwise
     */
    Registrar quota(String name, long defaultMonthly);

    Registrar route(RouteSpec route);

    Registrar tool(ToolDescriptor tool);

    Registrar event(EventType eventType);

    /**
     * Declares this plugin's Flyway migrations: scripts under {@code db/migration/<pluginId>} in the plugin's
     * own class path, applied to {@code schema} with a history table of their own.
     */
    Registrar migrations(String schema);

    /**
     * Declares a background worker: the platform runs {@code task} on a virtual thread once the plugins have started
     * and then {@code interval} after each run ends, logs a run that fails, and interrupts and ends it on stop. The
     * interval is asked of the started context once (e.g. from a configuration value). Names are lowercase
     * ({@code [a-z][a-z0-9_-]*}) and unique within the plugin.
     */
    Registrar worker(String name, java.util.function.Function<PluginContext, java.time.Duration> interval,
            Worker task);

    /** Offers a service to other plugins (e.g. "look up a project"); they find it through {@link PluginContext}. */
    <T> Registrar provide(Class<T> type, T implementation);

    /**
     * The plugin's {@link PluginContext}, to keep for route handlers and tools: every lookup through it
     * ({@code context().require(Mailer.class)}, {@code service}, {@code config}, {@code inWorkspace}) resolves
     * when it is made, so a handler asks for a service per request instead of keeping one set in {@code start}.
     * Before the platform starts plugins each method throws an {@link IllegalStateException} saying so: do not
     * call it from {@code register} itself.
     */
    PluginContext context();
}
