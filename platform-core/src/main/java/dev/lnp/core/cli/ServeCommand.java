package dev.lnp.core.cli;

import dev.lnp.core.Platform;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.logging.Logging;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Start the platform (the embedded PostgreSQL too, when no database URL is configured).")
final class ServeCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        PlatformConfig config = PlatformConfig.fromEnvironment(Map.of());
        Logging.configure(config.get("lnp.log.level").orElse("INFO"));
        var plugins = new Plugins(config);
        Platform platform = Platform.start(config, plugins.loaded(), plugins::close);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            platform.close();
            stopped.countDown();
        }, "lnp-shutdown"));
        System.out.println("LNP platform listening on http://localhost:" + platform.port()
                + " (public URL " + config.baseUrl() + ")");
        System.out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
