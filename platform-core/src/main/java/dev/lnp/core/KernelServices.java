package dev.lnp.core;

import dev.lnp.api.internal.db.Transactions;
import dev.lnp.api.internal.platform.ConfigValues;
import dev.lnp.api.internal.subsystem.Subsystem;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * The kernel's services as its subsystems see them ({@link Subsystem.Services}), with the services the kernel and
 * the subsystems offered so far, each under the one type it is looked up with.
 */
final class KernelServices implements Subsystem.Services {

    private final ConfigValues config;
    private final Jdbi jdbi;
    private final Transactions transactions;
    private final Clock clock;
    private final Map<Class<?>, Object> offered = new LinkedHashMap<>();

    KernelServices(ConfigValues config, Jdbi jdbi, Transactions transactions, Clock clock) {
        this.config = config;
        this.jdbi = jdbi;
        this.transactions = transactions;
        this.clock = clock;
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
     * What plugins may look up ({@code PluginContext.service}): the offered services of the public API. The internal
     * ones (the mailbox of every workspace's mail) are for subsystems only.
     */
    synchronized Map<Class<?>, Object> offeredToPlugins() {
        var visible = new LinkedHashMap<Class<?>, Object>();
        offered.forEach((type, service) -> {
            if (type.getPackageName().startsWith("dev.lnp.api.") && !type.getPackageName().startsWith("dev.lnp.api.internal")) {
                visible.put(type, service);
            }
        });
        return Map.copyOf(visible);
    }

    @Override
    public ConfigValues config() {
        return config;
    }

    @Override
    public Jdbi jdbi() {
        return jdbi;
    }

    @Override
    public Transactions transactions() {
        return transactions;
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public synchronized <T> Optional<T> service(Class<T> type) {
        return Optional.ofNullable(offered.get(type)).map(type::cast);
    }
}
