package dev.lnp.core.plugins;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.PluginContext;
import dev.lnp.api.Registrar;
import dev.lnp.api.workspace.Role;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.events.EventType;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.events.Subscriptions;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.api.mcp.ToolDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything every plugin registered, kept by plugin: the single source of truth for routing, scopes, the
 * MCP catalog, the event catalog and the documentation generated from them. Filled once at start-up and read
 * only afterwards.
 */
public final class PluginRegistry {

    /** A declared scope, and the weakest workspace role that may hold it. */
    public record ScopeInfo(String name, String description, String pluginId, Role weakestRole) {
    }

    /** A route and the surface it was declared on ({@link Surface#REST} unless a first-party plugin said otherwise). */
    public record RegisteredRoute(String pluginId, RouteSpec spec, Surface surface) {
    }

    public record RegisteredTool(String pluginId, ToolDescriptor descriptor) {
    }

    public record RegisteredEvent(String pluginId, EventType type) {
    }

    /** A monthly quota counter and its limit when neither the deployment nor the workspace sets one. */
    public record QuotaInfo(String name, long defaultMonthly, String pluginId) {
    }

    /** What one plugin contributed. */
    public record Contributions(String pluginId, List<ScopeInfo> scopes, List<RouteSpec> routes,
            List<ToolDescriptor> tools, List<EventType> events, Optional<String> schema, List<QuotaInfo> quotas) {
    }

    /** A page and the plugin that contributed it. */
    public record RegisteredPage(String pluginId, PageRoute page) {
    }

    /** A source of the application's search and the plugin that offered it. */
    public record RegisteredSearch(String pluginId, dev.lnp.api.pages.PageSearch search) {
    }

    private final Map<String, Contributions> byPlugin = new LinkedHashMap<>();
    // Package-private for the PluginRegistrar, which checks each declaration against these and records it here.
    final Map<String, ScopeInfo> scopes = new TreeMap<>();
    final Map<String, RegisteredTool> tools = new LinkedHashMap<>();
    final Map<String, RegisteredEvent> events = new LinkedHashMap<>();
    final Map<String, String> eventAliases = new LinkedHashMap<>();
    final Map<String, QuotaInfo> quotas = new TreeMap<>();
    final Map<String, Object> services = new LinkedHashMap<>();
    final List<RegisteredRoute> routes = new ArrayList<>();
    final List<RegisteredPage> pages = new ArrayList<>();
    final List<RegisteredSearch> searches = new ArrayList<>();
    private volatile PluginContext startedContext;

    /** Lets a plugin declare itself; what it declares is recorded against its id. */
    public void register(String pluginId, PlatformPlugin plugin) {
        if (byPlugin.containsKey(pluginId)) {
            throw new IllegalStateException("Plugin " + pluginId + " registered twice");
        }
        var registrar = new PluginRegistrar(this, pluginId);
        plugin.register(registrar);
        registrar.checkQuotasDeclared();
        byPlugin.put(pluginId, registrar.contributions());
    }

    public Collection<Contributions> plugins() {
        return Collections.unmodifiableCollection(byPlugin.values());
    }

    public Optional<Contributions> contributionsOf(String pluginId) {
        return Optional.ofNullable(byPlugin.get(pluginId));
    }

    public List<RegisteredRoute> routes() {
        return Collections.unmodifiableList(routes);
    }

    /** Every plugin's pages, in registration order (which is their matching order). */
    public List<RegisteredPage> pages() {
        return Collections.unmodifiableList(pages);
    }

    /** Every plugin's search sources, in registration order. */
    public List<RegisteredSearch> searches() {
        return Collections.unmodifiableList(searches);
    }

    public Collection<ScopeInfo> scopes() {
        return Collections.unmodifiableCollection(scopes.values());
    }

    /** Every declared monthly quota, by name. */
    public Collection<QuotaInfo> quotas() {
        return Collections.unmodifiableCollection(quotas.values());
    }

    public boolean hasScope(String scope) {
        return scopes.containsKey(scope);
    }

    public Collection<RegisteredTool> tools() {
        return Collections.unmodifiableCollection(tools.values());
    }

    public Optional<RegisteredTool> tool(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    public Collection<RegisteredEvent> events() {
        return Collections.unmodifiableCollection(events.values());
    }

    /** The canonical event name for a name or one of its aliases. */
    public Optional<String> canonicalEvent(String nameOrAlias) {
        if (events.containsKey(nameOrAlias)) {
            return Optional.of(nameOrAlias);
        }
        return Optional.ofNullable(eventAliases.get(nameOrAlias));
    }

    public <T> Optional<T> service(Class<T> type) {
        return Optional.ofNullable(type.cast(services.get(type.getName())));
    }

    /**
     * The context plugins start with; from now on the contexts handed out at registration
     * ({@code Registrar.context()}) answer through it. Called once, before the first plugin starts.
     */
    public void contextReady(PluginContext context) {
        this.startedContext = java.util.Objects.requireNonNull(context);
    }

    PluginContext startedContext() {
        return startedContext;
    }

    /** An in-process subscription to an event ({@link Subscriptions#subscribe}); delivered by EventSubscriptions. */
    public record Subscription(String subscriber, String pluginId, String eventName,
            dev.lnp.api.internal.events.EventHandler handler) {
    }

    final List<Subscription> subscriptions = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Every in-process event subscription, in registration order. */
    public List<Subscription> subscriptions() {
        return List.copyOf(subscriptions);
    }

    /** A background worker a plugin declared ({@link Registrar#worker}); run by PluginWorkers. */
    public record PluginWorker(String pluginId, String name,
            java.util.function.Function<PluginContext, java.time.Duration> interval, dev.lnp.api.Worker task) {
    }

    final List<PluginWorker> workers = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Every plugin's background workers, in registration order. */
    public List<PluginWorker> workers() {
        return List.copyOf(workers);
    }
}
