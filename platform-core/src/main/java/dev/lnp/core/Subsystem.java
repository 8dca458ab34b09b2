package dev.lnp.core;

import dev.lnp.api.Registrar;
import dev.lnp.api.internal.events.Notifications;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.console.ConsoleExtension;
import dev.lnp.core.db.Database;
import dev.lnp.core.db.WorkspaceTransactions;
import dev.lnp.core.mail.PlatformMailer;
import dev.lnp.core.metrics.PlatformMetrics;
import dev.lnp.core.plugins.PluginRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * A first-party part of the platform that lives in a module of its own (webhooks) and reaches the kernel only
 * through this seam, so that the kernel never depends on it. The kernel finds subsystems with {@link ServiceLoader}
 * ({@code uses dev.lnp.core.Subsystem}; a subsystem's module {@code provides} it), a fresh instance per platform
 * start: one on the module path or class path is part of the platform, one left out is simply absent.
 *
 * <p>A subsystem differs from a plugin in what it may reach: kernel services (the database, metrics, the mailer,
 * the console) rather than only the plugin API. What it declares goes through the same {@link Registrar} plugins use,
 * under the core's id, so route listings, scopes and the event catalog show it as part of the core.
 */
public interface Subsystem {

    /** What registration may read: nothing has started yet (the command line registers without a database). */
    record Setup(PluginRegistry registry, PlatformConfig config, Clock clock) {
    }

    /** The kernel services a running subsystem may use. */
    record Services(Database database, WorkspaceTransactions transactions, PlatformMetrics metrics,
            PlatformMailer mailer, Notifications notifications, Clock clock) {
    }

    /** This node's background work, closed before plugins stop. */
    interface Running extends AutoCloseable {

        /**
         * Deletes history older than the subsystem keeps it, answering how many rows went; the kernel's maintenance
         * calls it every minute.
         */
        int purgeHistory();

        @Override
        void close();
    }

    /** Declares scopes, routes and event types (and builds what they share); called once, before plugins register. */
    void register(Registrar registrar, Setup setup);

    /** Pages and JSON operations the subsystem adds to the administration console, if any. */
    default Optional<ConsoleExtension> console(Services services) {
        return Optional.empty();
    }

    /**
     * Every template the subsystem ships, each rendered with a representative model in the subsystem's own module
     * ({@code platform doctor} checks them).
     */
    default List<dev.lnp.core.console.TemplateRender> templates() {
        return List.of();
    }

    /** Starts this node's background work, once every plugin has started. */
    Running start(Services services);

    /** Every subsystem visible to the kernel's module (or class path), in a stable order (by class name). */
    static List<Subsystem> load() {
        return ServiceLoader.load(Subsystem.class, Subsystem.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .sorted(java.util.Comparator.comparing(s -> s.getClass().getName()))
                .toList();
    }
}
