package dev.lnp.core;

import dev.lnp.api.internal.mcp.ToolGateway;
import dev.lnp.api.internal.subsystem.Subsystem;
import dev.lnp.api.mail.Mailer;
import dev.lnp.core.auth.Authenticator;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.database.Database;
import dev.lnp.core.metrics.PlatformMetrics;
import dev.lnp.core.plugins.LoadedPlugin;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.server.Listeners;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Optional;

/**
 * The running platform. Start-up, in order: database (embedded or configured), core and subsystem migrations, plugin
 * registration, plugin migrations (dependency order) and their row-level-security check, plugin start,
 * routing, server. Each started component goes on one stack ({@link StartedComponents}); shutdown, and a start
 * that fails halfway, close it in reverse: the server drains requests in flight first.
 */
public final class Platform implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Platform.class.getName());

    private final PlatformConfig config;
    private final Database database;
    private final PluginRegistry registry;
    private final Listeners server;
    private final Authenticator authenticator;
    private final ToolGateway toolGateway;
    private final List<Subsystem> subsystems;
    private final PlatformMetrics metrics;
    private final KernelServices kernelServices;
    /** Everything started, closed in reverse order by {@link #close()}. */
    private final StartedComponents started;
    private boolean closed;

    Platform(PlatformConfig config, Database database, PluginRegistry registry, Listeners server,
            Authenticator authenticator, ToolGateway toolGateway, List<Subsystem> subsystems, PlatformMetrics metrics,
            KernelServices kernelServices, StartedComponents started) {
        this.config = config;
        this.database = database;
        this.registry = registry;
        this.server = server;
        this.authenticator = authenticator;
        this.toolGateway = toolGateway;
        this.subsystems = subsystems;
        this.metrics = metrics;
        this.kernelServices = kernelServices;
        this.started = started;
    }

    /**
     * @param plugins the plugins to run, in dependency order (from the plugins folder or the class path)
     * @param unloadPlugins releases the plugin class loaders on shutdown
     */
    public static Platform start(PlatformConfig config, List<LoadedPlugin> plugins, Runnable unloadPlugins) {
        return start(config, BackgroundTask.done(plugins), unloadPlugins);
    }

    /**
     * As {@link #start(PlatformConfig, List, Runnable)}, with the plugins still loading: the pool opens meanwhile
     * and the plugins are taken before anything uses them. A failure of their loading is the start's failure, as
     * it was when they loaded first: also when the database fails meanwhile (the plugins' error is reported, the
     * database's attached to it).
     *
     * @param unloadPlugins run after the loading has ended, however it ended
     */
    public static Platform start(PlatformConfig config, BackgroundTask<List<LoadedPlugin>> loading,
            Runnable unloadPlugins) {
        return PlatformStartup.start(config, loading, unloadPlugins);
    }

    public int port() {
        return server.port();
    }

    /**
     * Completed with the listener's name and the cause when a listener stops accepting connections on its own; the
     * platform then has to stop and be started again ({@code serve} exits non-zero).
     */
    public java.util.concurrent.CompletableFuture<String> listenerFailure() {
        return server.listenerFailure();
    }

    /** The port of the management listener (metrics), or -1 when it is switched off. */
    public int managementPort() {
        return server.managementPort();
    }

    public PlatformMetrics metrics() {
        return metrics;
    }

    public PluginRegistry registry() {
        return registry;
    }

    public Authenticator authenticator() {
        return authenticator;
    }

    /** The tool gateway plugins are given: every tool call with its permissions, limits and audit. */
    public ToolGateway toolGateway() {
        return toolGateway;
    }

    /** The subsystem of this type if its module is part of the platform. */
    public <T extends Subsystem> Optional<T> subsystem(Class<T> type) {
        return subsystems.stream().filter(type::isInstance).map(type::cast).findFirst();
    }

    /**
     * Outgoing mail: the {@link Mailer} and the mailbox operators read.
     *
     * @throws IllegalStateException when the mail module is not part of the platform
     */
    public dev.lnp.api.internal.mail.MailService mail() {
        return kernelServices.require(dev.lnp.api.internal.mail.MailService.class);
    }

    /** A service the kernel's subsystems offer (e.g. the mail module's {@code Mailbox}), if one does. */
    public <T> Optional<T> service(Class<T> type) {
        return kernelServices.service(type);
    }

    public Database database() {
        return database;
    }

    public PlatformConfig config() {
        return config;
    }

    /**
     * Closes what {@link #start} started, the last first: the server (draining requests in flight), the
     * maintenance, event subscriptions and the subsystems' work, the plugins, the subsystems' services, the audit writers, the pool, the
     * embedded database, the plugin class loaders. A second call does nothing.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        LOG.log(Level.INFO, "Platform stopping");
        started.close();
        LOG.log(Level.INFO, "Platform stopped");
    }
}
