package dev.lnp.api;

/**
 * A plugin's entry point. Declared in {@code META-INF/services/dev.lnp.api.PlatformPlugin} of the plugin jar;
 * the plugin's id, version and dependencies come from its PF4J descriptor (MANIFEST.MF or plugin.properties).
 *
 * <p>Lifecycle: {@link #register} runs once at start-up, before routing is built and before migrations run;
 * {@link #start} after migrations, when the database is ready; {@link #stop} on shutdown, in reverse order.
 */
public interface PlatformPlugin {

    /** Declares everything this plugin contributes: scopes, routes, tools, event types, migrations, services. */
    void register(Registrar registrar);

    /** Called once the database is migrated and every plugin is registered. */
    default void start(PluginContext context) {
    }

    default void stop() {
    }
}
