package dev.lnp.api;

/**
 * A plugin's background task, declared with {@link Registrar#worker} and run by the platform: on a virtual thread of
 * its own, first once the plugins have started, then one interval after each run ends, until the platform stops.
 * A run that throws is logged and the next one is still scheduled; a stopping platform interrupts the run.
 */
@FunctionalInterface
public interface Worker {

    /** One run; {@code context} is the plugin's, as {@link PlatformPlugin#start} received it. */
    void run(PluginContext context) throws Exception;
}
