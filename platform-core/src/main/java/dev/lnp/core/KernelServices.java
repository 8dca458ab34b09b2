package dev.lnp.core;

import dev.lnp.api.internal.http.JsonValidation;
import dev.lnp.api.internal.events.Notifications;
import dev.lnp.api.internal.db.Transactions;
import dev.lnp.api.internal.http.HttpAnswers;
import dev.lnp.api.internal.keys.ConnectionAdmin;
import dev.lnp.api.internal.platform.ConfigValues;
import dev.lnp.api.internal.platform.PlatformMeters;
import dev.lnp.api.internal.platform.PluginCatalog;
import dev.lnp.api.internal.platform.RateLimits;
import dev.lnp.api.internal.subsystem.Subsystem;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * The kernel's services as its subsystems see them ({@link Subsystem.Services}), with the services the subsystems
 * offered so far, each under the one type it is looked up with.
 */
final class KernelServices implements Subsystem.Services {

    /** The kernel's own services, built before any subsystem offers its. */
    record Kernel(ConfigValues config, Jdbi jdbi, Transactions transactions, Clock clock, PluginCatalog plugins,
            PlatformMeters meters, Notifications notifications, HttpAnswers http, ConnectionAdmin connections,
            RateLimits limits, JsonValidation jsonValidation) {
    }

    private final Kernel kernel;
    private final List<Subsystem> subsystems;
    private final Map<Class<?>, Object> offered = new LinkedHashMap<>();

    KernelServices(Kernel kernel, List<Subsystem> subsystems) {
        this.kernel = kernel;
        this.subsystems = List.copyOf(subsystems);
    }

    /** Adds {@code services}, offered by {@code by}; a type offered twice fails the start, naming both. */
    synchronized void add(String by, Map<Class<?>, Object> services) {
        services.forEach((type, service) -> {
            if (!type.isInstance(service)) {
                throw new IllegalStateException(by + " offers " + service.getClass().getName() + " as "
                        + type.getName() + ", which it is not");
            }
            Object before = offered.putIfAbsent(type, service);
            if (before != null) {
                throw new IllegalStateException(by + " offers " + type.getName() + ", already offered by "
                        + before.getClass().getName());
            }
        });
    }

    /**
     * Internal services a subsystem offers to first-party plugins too: the console's pages for people and the OpenAPI
     * documents of a plugin's own routes (trials).
     */
    private static final java.util.Set<String> INTERNAL_FOR_PLUGINS = java.util.Set.of("dev.lnp.api.internal.people",
            "dev.lnp.api.internal.openapi", "dev.lnp.api.internal.tokens");

    /**
     * What plugins may look up ({@code PluginContext.service}): the offered services of the public API, and the
     * internal ones first-party plugins use ({@link #INTERNAL_FOR_PLUGINS}). The other internal ones (the mailbox of
     * every workspace's mail) are for subsystems only.
     */
    synchronized Map<Class<?>, Object> offeredToPlugins() {
        var visible = new LinkedHashMap<Class<?>, Object>();
        offered.forEach((type, service) -> {
            String name = type.getPackageName();
            if (name.startsWith("dev.lnp.api.")
                    && (!name.startsWith("dev.lnp.api.internal") || INTERNAL_FOR_PLUGINS.contains(name))) {
                visible.put(type, service);
            }
        });
        return Map.copyOf(visible);
    }

    @Override
    public ConfigValues config() {
        return kernel.config();
    }

    @Override
    public Jdbi jdbi() {
        return kernel.jdbi();
    }

    @Override
    public Transactions transactions() {
        return kernel.transactions();
    }

    @Override
    public Clock clock() {
        return kernel.clock();
    }

    @Override
    public PluginCatalog plugins() {
        return kernel.plugins();
    }

    @Override
    public PlatformMeters meters() {
        return kernel.meters();
    }

    @Override
    public Notifications notifications() {
        return kernel.notifications();
    }

    @Override
    public HttpAnswers http() {
        return kernel.http();
    }

    @Override
    public ConnectionAdmin connections() {
        return kernel.connections();
    }

    @Override
    public RateLimits limits() {
        return kernel.limits();
    }

    @Override
    public JsonValidation jsonValidation() {
        return kernel.jsonValidation();
    }

    @Override
    public synchronized <T> Optional<T> service(Class<T> type) {
        return Optional.ofNullable(offered.get(type)).map(type::cast);
    }
}
