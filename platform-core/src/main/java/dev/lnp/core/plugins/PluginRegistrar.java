package dev.lnp.core.plugins;

import dev.lnp.api.PluginContext;
import dev.lnp.api.Registrar;
import dev.lnp.api.workspace.Role;
import dev.lnp.api.events.EventType;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.events.Subscriptions;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.api.internal.http.SurfaceRegistrar;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.pages.PageRegistrar;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageSearch;
import dev.lnp.core.plugins.PluginRegistry.Contributions;
import dev.lnp.core.plugins.PluginRegistry.PluginWorker;
import dev.lnp.core.plugins.PluginRegistry.QuotaInfo;
import dev.lnp.core.plugins.PluginRegistry.RegisteredEvent;
import dev.lnp.core.plugins.PluginRegistry.RegisteredPage;
import dev.lnp.core.plugins.PluginRegistry.RegisteredRoute;
import dev.lnp.core.plugins.PluginRegistry.RegisteredTool;
import dev.lnp.core.plugins.PluginRegistry.ScopeInfo;
import dev.lnp.core.plugins.PluginRegistry.Subscription;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one plugin declares while it registers: each declaration is checked against what the plugins before it
 * declared and recorded in the {@link PluginRegistry}; the plugin's own share becomes its {@link Contributions}.
 */
final class PluginRegistrar implements Registrar, SurfaceRegistrar, Subscriptions, PageRegistrar {

    private static final java.util.regex.Pattern WORKER_NAME = java.util.regex.Pattern.compile("[a-z][a-z0-9_-]*");

    private final PluginRegistry registry;
    private final String pluginId;
    private final List<ScopeInfo> myScopes = new ArrayList<>();
    private final List<RouteSpec> myRoutes = new ArrayList<>();
    private final List<ToolDescriptor> myTools = new ArrayList<>();
    private final List<EventType> myEvents = new ArrayList<>();
    private final List<QuotaInfo> myQuotas = new ArrayList<>();
    private String schema;

    PluginRegistrar(PluginRegistry registry, String pluginId) {
        this.registry = registry;
        this.pluginId = pluginId;
    }

    @Override
    public String pluginId() {
        return pluginId;
    }

    @Override
    public Registrar scope(String name, String description, Role weakestRole) {
        java.util.Objects.requireNonNull(weakestRole, "the weakest role of scope " + name);
        if (!name.matches("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*\\.(read|write|use)")) {
            throw new IllegalArgumentException(pluginId + ": scope " + name
                    + " must look like resource.read, resource.write or resource.use");
        }
        ScopeInfo existing = registry.scopes.get(name);
        if (existing != null && !existing.pluginId().equals(pluginId)) {
            throw new IllegalStateException(pluginId + ": scope " + name + " is already declared by "
                    + existing.pluginId());
        }
        var info = new ScopeInfo(name, description, pluginId, weakestRole);
        registry.scopes.put(name, info);
        myScopes.add(info);
        return this;
    }

    @Override
    public Registrar quota(String name, long defaultMonthly) {
        if (name == null || !name.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException(pluginId + ": quota name " + name
                    + " must be lowercase letters, digits and underscores, starting with a letter (at most 63)");
        }
        if (defaultMonthly < 0) {
            throw new IllegalArgumentException(pluginId + ": quota " + name + " needs a default of 0 or more, not "
                    + defaultMonthly);
        }
        QuotaInfo existing = registry.quotas.get(name);
        if (existing != null) {
            throw new IllegalStateException(pluginId + ": quota " + name + " is already declared by "
                    + existing.pluginId());
        }
        var info = new QuotaInfo(name, defaultMonthly, pluginId);
        registry.quotas.put(name, info);
        myQuotas.add(info);
        return this;
    }

    @Override
    public Registrar route(RouteSpec route) {
        return route(Surface.REST, route);
    }

    @Override
    public Registrar route(Surface surface, RouteSpec route) {
        java.util.Objects.requireNonNull(surface, "surface of " + route.method() + " " + route.path());
        for (RegisteredRoute r : registry.routes) {
            if (r.spec().method() == route.method() && r.spec().path().equals(route.path())) {
                throw new IllegalStateException(pluginId + ": " + route.method() + " " + route.path()
                        + " is already registered by " + r.pluginId());
            }
        }
        registry.routes.add(new RegisteredRoute(pluginId, route, surface));
        myRoutes.add(route);
        return this;
    }

    @Override
    public Registrar tool(ToolDescriptor tool) {
        RegisteredTool existing = registry.tools.putIfAbsent(tool.name(), new RegisteredTool(pluginId, tool));
        if (existing != null) {
            throw new IllegalStateException(pluginId + ": tool " + tool.name() + " is already registered by "
                    + existing.pluginId());
        }
        myTools.add(tool);
        return this;
    }

    @Override
    public Registrar event(EventType eventType) {
        if (registry.events.containsKey(eventType.name()) || registry.eventAliases.containsKey(eventType.name())) {
            throw new IllegalStateException(pluginId + ": event " + eventType.name() + " is already registered");
        }
        registry.events.put(eventType.name(), new RegisteredEvent(pluginId, eventType));
        for (String alias : eventType.aliases()) {
            if (registry.events.containsKey(alias)
                    || registry.eventAliases.putIfAbsent(alias, eventType.name()) != null) {
                throw new IllegalStateException(pluginId + ": event alias " + alias + " is already taken");
            }
        }
        myEvents.add(eventType);
        return this;
    }

    @Override
    public Registrar migrations(String schema) {
        if (!schema.matches("[a-z][a-z0-9_]{0,62}") || schema.startsWith("pg_") || schema.equals("lnp_core")
                || schema.equals("public")) {
            throw new IllegalArgumentException(pluginId + ": schema name " + schema + " is not allowed");
        }
        this.schema = schema;
        return this;
    }

    @Override
    public PageRegistrar page(PageRoute page) {
        if (registry.pages.stream()
                .anyMatch(p -> p.page().method().equals(page.method()) && p.page().path().equals(page.path()))) {
            throw new IllegalStateException(pluginId + ": page " + page.method() + " " + page.path()
                    + " is declared twice");
        }
        registry.pages.add(new RegisteredPage(pluginId, page));
        return this;
    }

    @Override
    public PageRegistrar search(PageSearch search) {
        if (registry.searches.stream().anyMatch(s -> s.search().kind().equals(search.kind()))) {
            throw new IllegalStateException(pluginId + ": the search kind " + search.kind()
                    + " is already offered by " + registry.searches.stream()
                    .filter(s -> s.search().kind().equals(search.kind())).findFirst().orElseThrow().pluginId());
        }
        registry.searches.add(new PluginRegistry.RegisteredSearch(pluginId, search));
        return this;
    }

    @Override
    public PluginContext context() {
        return new LazyPluginContext(pluginId, registry);
    }

    @Override
    public Subscriptions subscribe(String eventName, dev.lnp.api.internal.events.EventHandler handler) {
        java.util.Objects.requireNonNull(handler, "handler");
        String subscriber = pluginId + ":" + eventName;
        if (registry.subscriptions.stream().anyMatch(s -> s.subscriber().equals(subscriber))) {
            throw new IllegalStateException(pluginId + ": already subscribed to " + eventName);
        }
        registry.subscriptions.add(new Subscription(subscriber, pluginId, eventName, handler));
        return this;
    }

    @Override
    public Registrar worker(String name, java.util.function.Function<PluginContext, java.time.Duration> interval,
            dev.lnp.api.Worker task) {
        java.util.Objects.requireNonNull(interval, "interval");
        java.util.Objects.requireNonNull(task, "task");
        if (name == null || !WORKER_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(pluginId + ": worker name '" + name
                    + "' must be lowercase letters, digits, '_' or '-', starting with a letter");
        }
        if (registry.workers.stream().anyMatch(w -> w.pluginId().equals(pluginId) && w.name().equals(name))) {
            throw new IllegalStateException(pluginId + ": a worker " + name + " is already declared");
        }
        registry.workers.add(new PluginWorker(pluginId, name, interval, task));
        return this;
    }

    @Override
    public <T> Registrar provide(Class<T> type, T implementation) {
        if (registry.services.putIfAbsent(type.getName(), type.cast(implementation)) != null) {
            throw new IllegalStateException(pluginId + ": a service " + type.getName() + " is already provided");
        }
        return this;
    }

    /**
     * A quota nobody declared would never limit anything: a route or tool must name one of its own plugin's
     * quotas. Checked after {@code register} so that the declaration may come after its use.
     */
    void checkQuotasDeclared() {
        for (RouteSpec route : myRoutes) {
            checkDeclared(route.quota(), "route " + route.method() + " " + route.path());
        }
        for (ToolDescriptor tool : myTools) {
            checkDeclared(tool.quota(), "tool " + tool.name());
        }
    }

    private void checkDeclared(String quota, String user) {
        if (quota != null && myQuotas.stream().noneMatch(q -> q.name().equals(quota))) {
            throw new IllegalStateException(pluginId + ": " + user + " uses the quota " + quota
                    + ", which this plugin does not declare (registrar.quota(\"" + quota + "\", defaultMonthly))");
        }
    }

    Contributions contributions() {
        return new Contributions(pluginId, List.copyOf(myScopes), List.copyOf(myRoutes), List.copyOf(myTools),
                List.copyOf(myEvents), Optional.ofNullable(schema), List.copyOf(myQuotas));
    }
}
