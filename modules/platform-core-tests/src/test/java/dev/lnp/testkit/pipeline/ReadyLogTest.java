package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.Test;

/** The start-up log names the port as a number, never locale-formatted ("port 8,080"). */
class ReadyLogTest {

    @Test
    void theReadyLineNamesThePortWithoutGroupingInAnyLocale() {
        Locale previous = Locale.getDefault();
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(new SimpleFormatter().formatMessage(record));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger("dev.lnp.core.Platform");
        Level level = logger.getLevel();
        logger.setLevel(Level.INFO);
        logger.addHandler(capture);
        Locale.setDefault(Locale.US);
        try (TestPlatform platform = TestPlatform.start("ready-log", List.of("probe"), null, Map.of())) {
            String port = Integer.toString(platform.port());
            assertTrue(platform.port() >= 1000, "a port that grouping would change: " + port);
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("Platform ready on port " + port + " ")),
                    "port " + port + " in " + lines);
        } finally {
            Locale.setDefault(previous);
            logger.removeHandler(capture);
            logger.setLevel(level);
        }
    }
}
