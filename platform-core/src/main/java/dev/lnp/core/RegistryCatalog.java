package dev.lnp.core;

import dev.lnp.api.internal.platform.PluginCatalog;
import dev.lnp.core.auth.ScopeCatalog;
import dev.lnp.core.plugins.PluginRegistry;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The {@link PluginRegistry} as subsystems read it ({@link PluginCatalog}); live, so complete after registration. */
public final class RegistryCatalog implements PluginCatalog {

    private final PluginRegistry registry;
    private volatile ScopeCatalog roles;

    public RegistryCatalog(PluginRegistry registry) {
        this.registry = registry;
    }

    @Override
    public List<PluginSummary> plugins() {
        return registry.plugins().stream().map(p -> new PluginSummary(p.pluginId(),
                p.scopes().stream().map(PluginRegistry.ScopeInfo::name).toList(), p.routes().size(), p.tools().size(),
                p.events().size())).toList();
    }

    @Override
    public boolean hasPlugin(String pluginId) {
        return registry.contributionsOf(pluginId).isPresent();
    }

    @Override
    public List<Route> routes() {
        return registry.routes().stream().map(r -> new Route(r.pluginId(), r.spec())).toList();
    }

    @Override
    public List<Quota> quotas() {
        return registry.quotas().stream().map(q -> new Quota(q.name(), q.pluginId())).toList();
    }

    @Override
    public Set<String> toolNames() {
        var names = new TreeSet<String>();
        registry.tools().forEach(t -> names.add(t.descriptor().name()));
        return names;
    }

    @Override
    public List<Page> pages() {
        return registry.pages().stream().map(p -> new Page(p.pluginId(), p.page())).toList();
    }

    @Override
    public List<Search> searches() {
        return registry.searches().stream().map(s -> new Search(s.pluginId(), s.search())).toList();
    }

    /**
     * Asked several times for every page a person opens, and only once the server serves, when registration has
     * ended: the role's scopes are worked out from the registry once, not per request.
     */
    @Override
    public Set<String> scopesOfRole(String role) {
        ScopeCatalog catalog = roles;
        if (catalog == null) {
            catalog = new ScopeCatalog(registry);
            roles = catalog;
        }
        return catalog.allowedForRole(role);
    }

    @Override
    public Set<String> scopes() {
        return new ScopeCatalog(registry).all();
    }

    @Override
    public List<Event> events() {
        return registry.events().stream().map(e -> new Event(e.pluginId(), e.type())).toList();
    }

    @Override
    public Optional<String> canonicalEvent(String nameOrAlias) {
        return registry.canonicalEvent(nameOrAlias);
    }
}
