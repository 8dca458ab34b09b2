package dev.lnp.core;

import com.zaxxer.hikari.HikariDataSource;
import dev.lnp.api.internal.mcp.ToolGateway;
import dev.lnp.api.internal.subsystem.Subsystem;
import dev.lnp.core.auth.Authenticator;
import dev.lnp.core.auth.KeyRepository;
import dev.lnp.core.auth.ScopeCatalog;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.database.Database;
import dev.lnp.database.DatabaseBootstrap;
import dev.lnp.database.migrations.Migrations;
import dev.lnp.core.db.WorkspaceTransactions;
import dev.lnp.core.health.DatabaseHealthCheck;
import dev.lnp.core.http.ApiServer;
import dev.lnp.core.http.ListenerSettings;
import dev.lnp.core.http.PipelineServices;
import dev.lnp.core.limits.AuditLog;
import dev.lnp.core.limits.IdempotencyStore;
import dev.lnp.core.limits.QuotaCounter;
import dev.lnp.core.limits.QuotaLimits;
import dev.lnp.core.limits.QuotaReserve;
import dev.lnp.core.limits.RateLimiter;
import dev.lnp.core.limits.ToolCallLog;
import dev.lnp.core.metrics.PlatformMetrics;
import dev.lnp.core.plugins.LoadedPlugin;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.tools.PlatformToolGateway;
import dev.lnp.server.Listeners;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Starts the platform in the order {@link Platform} describes. Every component goes on the stack of started
 * components as it starts, so that a start failing halfway closes what it had started, the last first.
 */
final class PlatformStartup {

    // The platform's own logger: its start is what operators look for there.
    private static final System.Logger LOG = System.getLogger(Platform.class.getName());

    private PlatformStartup() {
    }

    /** See {@link Platform#start(PlatformConfig, BackgroundTask, Runnable)}. */
    static Platform start(PlatformConfig config, BackgroundTask<List<LoadedPlugin>> loading, Runnable unloadPlugins) {
        long startedNanos = System.nanoTime();
        StartupPhases phases = new StartupPhases();
        // Pushed as each component starts; a failure below closes what is on it, the last started first.
        var started = new StartedComponents();
        started.pushStop("plugin class loaders", () -> {
            loading.failure();
            unloadPlugins.run();
        });
        List<LoadedPlugin> plugins = null;
        try {
            PlatformMetrics metrics = started.push("metrics", new PlatformMetrics(Version.current()));
            phases.mark("metrics");
            DatabaseBootstrap bootstrap = started.push("database bootstrap", DatabaseBootstrap.from(config));
            Database database = started.push("database pool", bootstrap.connect());
            if (database.dataSource() instanceof HikariDataSource pool) {
                metrics.bindPool(pool);
            }
            metrics.bindPool(database.writerPool());
            phases.mark("pool");
            // Subsystems are found first: some own migrations, and some of those took
            // over versions of the core's history, which the core's check tolerates.
            List<Subsystem> subsystems = Subsystem.load();
            var migrations = new Migrations(database.dataSource(), database.jdbi(),
                    Migrations.SubsystemOwner.of(subsystems));
            // Read while the core and the plugins register, which declares routes, tools and schemas and touches
            // no table; the migration itself, when one is due, waits for it below.
            var coreHistory = migrations.readCoreStatus();
            plugins = loading.join();
            phases.mark("rest of plugin loading");

            PluginRegistry registry = new PluginRegistry();
            // Subsystems register with the core, before plugins, so plugins' events find their catalog.
            registry.register(CorePlugin.ID, new CorePlugin(subsystems,
                    CorePlugin.setup(registry, config, Clock.systemUTC())));
            for (LoadedPlugin plugin : plugins) {
                registry.register(plugin.id(), plugin.instance());
                metrics.plugin(plugin.id(), plugin.version());
            }
            phases.mark("plugin registration");
            migrations.prepareCore(coreHistory);
            phases.mark("core migrations");
            migrations.prepareSubsystems();
            phases.mark("subsystem migrations");
            List<Migrations.Owner> pluginSchemas = new java.util.ArrayList<>();
            for (LoadedPlugin plugin : plugins) {
                registry.contributionsOf(plugin.id()).flatMap(PluginRegistry.Contributions::schema).ifPresent(
                        schema -> pluginSchemas.add(new Migrations.Owner(plugin.id(), schema, plugin.classLoader())));
            }
            migrations.preparePlugins(pluginSchemas);
            phases.mark("plugin migrations");
            var transactions = new WorkspaceTransactions(database.jdbi(), registry,
                    dev.lnp.core.events.OutboxPublisher.maxPayloadBytes(config),
                    new dev.lnp.database.OutboxWakes(database.jdbi(),
                            config.getInt("lnp.webhooks.wake_interval_ms", 20)));
            // The pipeline exists before plugins start, so that a plugin can take core services (the tool gateway)
            // in start(); no request reaches it before the server starts below.
            QuotaReserve quotaReserve = started.push("quota reserve", new QuotaReserve(database.jdbi()));
            var authenticator = new Authenticator(new KeyRepository(database.jdbi()), new ScopeCatalog(registry),
                    Clock.systemUTC(), legacyKeysUntil(config), quotaReserve);
            AuditLog audit = started.push("audit log", new AuditLog(database.writerJdbi()));
            ToolCallLog toolCalls = started.push("tool-call log", new ToolCallLog(database.writerJdbi()));
            metrics.auditWriter("audit_log", audit, AuditLog::queued, AuditLog::dropped);
            metrics.auditWriter("tool_calls", toolCalls, ToolCallLog::queued, ToolCallLog::dropped);
            var outage = new dev.lnp.database.DatabaseOutage(database);
            var services = new PipelineServices(authenticator, transactions,
                    new RateLimiter(Clock.systemUTC()), new QuotaCounter(database.jdbi(), Clock.systemUTC(), quotaReserve),
                    QuotaLimits.from(registry, config), new IdempotencyStore(), audit, config, metrics, outage);
            var notifications = started.push("notifications",
                    new dev.lnp.database.PgNotifications(database::openUnpooled));
            var connections = new dev.lnp.core.auth.Connections(database.jdbi(), new ScopeCatalog(registry).all());
            var jsonValidation = new dev.lnp.json.validation.PlatformJsonValidation();
            var kernelServices = new KernelServices(new KernelServices.Kernel(config, database.jdbi(), transactions,
                    Clock.systemUTC(), new RegistryCatalog(registry), metrics, notifications, new KernelHttpAnswers(),
                    connections, new KernelRateLimits(services.limits()), jsonValidation), subsystems);
            // Subsystems offer their services (mail's, then the console's people pages, which plugins take in
            // start()) before anything that uses them is built; what an offer started stops after the plugins,
            // which may use it to the end.
            for (Subsystem subsystem : subsystems) {
                kernelServices.add(subsystem.getClass().getName(), subsystem.offer(kernelServices));
                started.pushStop("subsystem " + subsystem.getClass().getSimpleName() + " services",
                        subsystem::withdraw);
            }
            phases.mark("subsystem services");
            var toolGateway = new PlatformToolGateway(registry, services, toolCalls, new KeyRepository(database.jdbi()),
                    new dev.lnp.core.tenancy.WorkspaceModules(database.jdbi(), registry.plugins().stream()
                            .map(PluginRegistry.Contributions::pluginId).toList())::disabled);
            // Plugins see what the subsystems offer them (the Mailer, the console's people pages), not their internal
            // services.
            var pluginServices = new java.util.HashMap<Class<?>, Object>(kernelServices.offeredToPlugins());
            pluginServices.putAll(Map.of(ToolGateway.class, toolGateway,
                    dev.lnp.api.internal.keys.KeyIssuer.class, new dev.lnp.core.auth.PlatformKeyIssuer(database.jdbi(),
                            connections),
                    dev.lnp.api.internal.workspaces.WorkspaceProvisioning.class,
                    new dev.lnp.core.tenancy.PlatformWorkspaceProvisioning(database.jdbi()),
                    dev.lnp.api.internal.events.Notifications.class,
                    notifications, dev.lnp.api.internal.http.JsonValidation.class, jsonValidation));
            var context = new PluginContextImpl(registry, transactions, config, Map.copyOf(pluginServices));
            registry.contextReady(context);
            for (LoadedPlugin plugin : plugins) {
                plugin.instance().start(context);
                started.pushStop("plugin " + plugin.id(), plugin.instance()::stop);
            }
            // Stopped before the plugins: a worker's run never outlives its plugin's stop.
            started.push("plugin workers", dev.lnp.core.plugins.PluginWorkers.start(registry, context));
            phases.mark("pipeline and plugin start");
            List<Subsystem.Running> running = new java.util.ArrayList<>();
            for (Subsystem subsystem : subsystems) {
                running.add(started.push("subsystem " + subsystem.getClass().getSimpleName(),
                        subsystem.start(kernelServices)));
            }
            phases.mark("subsystems");
            started.push("event subscriptions", dev.lnp.core.events.EventSubscriptions.start(database.jdbi(),
                    registry, config.get("lnp.events.subscription_interval").map(java.time.Duration::parse)
                            .orElse(java.time.Duration.ofMillis(500))));
            started.push("maintenance", Maintenance.start(database.jdbi(), () -> {
                running.forEach(Subsystem.Running::purgeHistory);
            }));
            phases.mark("event subscriptions and maintenance");
            Listeners server = ApiServer.start(config, registry, services, List.of(new DatabaseHealthCheck(database)),
                    ListenerSettings.management(config, metrics::scrape),
                    routing -> subsystems.forEach(subsystem -> subsystem.routing(routing)));
            // Stopped first: it stops accepting and lets requests in flight finish while everything else runs.
            started.pushStop("HTTP server", server::stop);
            subsystems.forEach(subsystem -> subsystem.serverStarted(server.port()));
            phases.mark("HTTP server and subsystems' routes");
            LOG.log(Level.DEBUG, () -> "Start-up phases: " + phases.summary());
            // Numbers as text: the log's MessageFormat would print 8080 as "8,080" in many locales.
            LOG.log(Level.INFO, "Platform ready on port {0} with plugins {1} in {2} ms", String.valueOf(server.port()),
                    plugins.stream().map(LoadedPlugin::id).toList(),
                    String.valueOf((System.nanoTime() - startedNanos) / 1_000_000));
            // The server answers already; the JVM's meters follow in a few tens of milliseconds.
            metrics.bindJvm();
            return new Platform(config, database, registry, server, authenticator, toolGateway, subsystems, metrics,
                    kernelServices, started);
        } catch (RuntimeException | Error e) {
            Throwable failure = e;
            if (plugins == null) {
                // Failed before the plugins were taken: had they loaded first, their failure would have come first.
                failure = loading.failure().filter(pluginFailure -> pluginFailure != e).map(pluginFailure -> {
                    pluginFailure.addSuppressed(e);
                    return pluginFailure;
                }).orElse(e);
            }
            started.close();
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failure instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /** The end of the legacy-key compatibility period, or null while it is open (not configured). */
    private static Instant legacyKeysUntil(PlatformConfig config) {
        return config.get("lnp.keys.legacy_until").filter(v -> !v.isBlank()).map(value -> {
            try {
                return Instant.parse(value.strip());
            } catch (java.time.format.DateTimeParseException e) {
                throw new IllegalArgumentException("lnp.keys.legacy_until must be an ISO-8601 instant such as "
                        + "2027-06-30T00:00:00Z, not " + value);
            }
        }).orElse(null);
    }
}
