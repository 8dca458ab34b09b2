package dev.lnp.core.plugins;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.PluginContext;
import dev.lnp.api.Registrar;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.events.EventType;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.events.Subscriptions;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.api.internal.http.SurfaceRegistrar;
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

    public record ScopeInfo(String name, String description, String pluginId) {
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

    private final Map<String, Contributions> byPlugin = new LinkedHashMap<>();
    private final Map<String, ScopeInfo> scopes = new TreeMap<>();
    private final Map<String, RegisteredTool> tools = new LinkedHashMap<>();
    private final Map<String, RegisteredEvent> events = new LinkedHashMap<>();
    private final Map<String, String> eventAliases = new LinkedHashMap<>();
    private final Map<String, QuotaInfo> quotas = new TreeMap<>();
    private final Map<String, Object> services = new LinkedHashMap<>();
    private final List<RegisteredRoute> routes = new ArrayList<>();
    private final List<RegisteredPage> pages = new ArrayList<>();
    private volatile PluginContext startedContext;

    /** Lets a plugin declare itself; what it declares is recorded against its id. */
    public void register(String pluginId, PlatformPlugin plugin) {
        if (byPlugin.containsKey(pluginId)) {
            throw new IllegalStateException("Plugin " + pluginId + " registered twice");
        }
        var registrar = new PluginRegistrar(pluginId);
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

    private final List<Subscription> subscriptions = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Every in-process event subscription, in registration order. */
    public List<Subscription> subscriptions() {
        return List.copyOf(subscriptions);
    }

    /** A background worker a plugin declared ({@link Registrar#worker}); run by PluginWorkers. */
    public record PluginWorker(String pluginId, String name,
            java.util.function.Function<PluginContext, java.time.Duration> interval, dev.lnp.api.Worker task) {
    }

    private static final java.util.regex.Pattern WORKER_NAME = java.util.regex.Pattern.compile("[a-z][a-z0-9_-]*");

    private final List<PluginWorker> workers = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Every plugin's background workers, in registration order. */
    public List<PluginWorker> workers() {
        return List.copyOf(workers);
    }

    private class PluginRegistrar implements Registrar, SurfaceRegistrar, Subscriptions {
        private final String pluginId;
        private final List<ScopeInfo> myScopes = new ArrayList<>();
        private final List<RouteSpec> myRoutes = new ArrayList<>();
        private final List<ToolDescriptor> myTools = new ArrayList<>();
        private final List<EventType> myEvents = new ArrayList<>();
        private final List<QuotaInfo> myQuotas = new ArrayList<>();
        private String schema;

        PluginRegistrar(String pluginId) {
            this.pluginId = pluginId;
        }

        @Override
        public String pluginId() {
            return pluginId;
        }

        @Override
        public Registrar scope(String name, String description) {
            if (!name.matches("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*\\.(read|write|use)")) {
                throw new IllegalArgumentException(pluginId + ": scope " + name
                        + " must look like resource.read, resource.write or resource.use");
            }
            ScopeInfo existing = scopes.get(name);
            if (existing != null && !existing.pluginId().equals(pluginId)) {
                throw new IllegalStateException(pluginId + ": scope " + name + " is already declared by "
                        + existing.pluginId());
            }
            var info = new ScopeInfo(name, description, pluginId);
            scopes.put(name, info);
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
            QuotaInfo existing = quotas.get(name);
            if (existing != null) {
                throw new IllegalStateException(pluginId + ": quota " + name + " is already declared by "
                        + existing.pluginId());
            }
            var info = new QuotaInfo(name, defaultMonthly, pluginId);
            quotas.put(name, info);
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
            for (RegisteredRoute r : routes) {
                if (r.spec().method() == route.method() && r.spec().path().equals(route.path())) {
                    throw new IllegalStateException(pluginId + ": " + route.method() + " " + route.path()
                            + " is already registered by " + r.pluginId());
                }
            }
            routes.add(new RegisteredRoute(pluginId, route, surface));
            myRoutes.add(route);
            return this;
        }

        @Override
        public Registrar tool(ToolDescriptor tool) {
            RegisteredTool existing = tools.putIfAbsent(tool.name(), new RegisteredTool(pluginId, tool));
            if (existing != null) {
                throw new IllegalStateException(pluginId + ": tool " + tool.name() + " is already registered by "
                        + existing.pluginId());
            }
            myTools.add(tool);
            return this;
        }

        @Override
        public Registrar event(EventType eventType) {
            if (events.containsKey(eventType.name()) || eventAliases.containsKey(eventType.name())) {
                throw new IllegalStateException(pluginId + ": event " + eventType.name() + " is already registered");
            }
            events.put(eventType.name(), new RegisteredEvent(pluginId, eventType));
            for (String alias : eventType.aliases()) {
                if (events.containsKey(alias) || eventAliases.putIfAbsent(alias, eventType.name()) != null) {
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
        public Registrar page(PageRoute page) {
            if (pages.stream().anyMatch(p -> p.page().method().equals(page.method()) && p.page().path().equals(page.path()))) {
                throw new IllegalStateException(pluginId + ": page " + page.method() + " " + page.path()
                        + " is declared twice");
            }
            pages.add(new RegisteredPage(pluginId, page));
            return this;
        }

        @Override
        public PluginContext context() {
            return new LazyPluginContext(pluginId, PluginRegistry.this);
        }

        @Override
        public Subscriptions subscribe(String eventName, dev.lnp.api.internal.events.EventHandler handler) {
            java.util.Objects.requireNonNull(handler, "handler");
            String subscriber = pluginId + ":" + eventName;
            if (subscriptions.stream().anyMatch(s -> s.subscriber().equals(subscriber))) {
                throw new IllegalStateException(pluginId + ": already subscribed to " + eventName);
            }
            subscriptions.add(new Subscription(subscriber, pluginId, eventName, handler));
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
            if (workers.stream().anyMatch(w -> w.pluginId().equals(pluginId) && w.name().equals(name))) {
                throw new IllegalStateException(pluginId + ": a worker " + name + " is already declared");
            }
            workers.add(new PluginWorker(pluginId, name, interval, task));
            return this;
        }

        @Override
        public <T> Registrar provide(Class<T> type, T implementation) {
            if (services.putIfAbsent(type.getName(), type.cast(implementation)) != null) {
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
}
