package dev.lnp.cli;

import dev.lnp.core.BackgroundTask;
import dev.lnp.core.Platform;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.logging.Logging;
import dev.lnp.core.plugins.LoadedPlugin;
import dev.lnp.server.ServerWarmUp;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;

@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Start the platform (the embedded PostgreSQL too, when no database URL is configured).")
final class ServeCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        PlatformConfig config = PlatformConfig.fromEnvironment(Map.of());
        Logging.configure(config.get("lnp.log.level").orElse("INFO"), config.get("lnp.log.format").orElse("auto"));
        // Installed before start-up, so a stop requested while the embedded database starts still stops it.
        CountDownLatch stopRequested = StopSignals.install();
        // After the logging set-up, so that anything Helidon logs meanwhile is in the platform's format.
        ServerWarmUp.start();
        // Loaded on their own thread while the database pool opens (PF4J reads each jar and builds its class
        // loader: CPU the pool's connection hand-shakes leave free); the start takes them before registration.
        var folder = new AtomicReference<Plugins>();
        BackgroundTask<List<LoadedPlugin>> plugins = BackgroundTask.start("lnp-plugin-loading", () -> {
            folder.set(new Plugins(config));
            return folder.get().loaded();
        });
        Platform platform = Platform.start(config, plugins, () -> {
            if (folder.get() != null) {
                folder.get().close();
            }
        });
        // Any other way the JVM ends (System.exit, a signal not handled above) still closes the platform.
        Runtime.getRuntime().addShutdownHook(new Thread(platform::close, "lnp-shutdown"));
        System.out.println("LNP platform listening on http://localhost:" + platform.port()
                + " (public URL " + config.baseUrl() + ")");
        System.out.flush();
        // A listener that stops accepting on its own (out of file descriptors, say) leaves a process that no longer
        // serves its port: stop, and exit non-zero so that the supervisor (systemd's Restart=on-failure) restarts.
        var listenerFailed = new AtomicReference<String>();
        platform.listenerFailure().thenAccept(failure -> {
            listenerFailed.set(failure);
            stopRequested.countDown();
        });
        try {
            stopRequested.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        platform.close();
        if (listenerFailed.get() != null) {
            System.err.println("error: " + listenerFailed.get()
                    + " (it stopped accepting connections); the platform stopped so that it can be started again");
            return 1;
        }
        return 0;
    }
}
