package dev.lnp.logging;

import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logs to standard error through java.util.logging (Helidon's, and SLF4J's via its JUL binding): readable lines on a
 * terminal, JSON lines otherwise ({@link LogFormat}).
 */
public final class Logging {

    // java.util.logging keeps loggers weakly: without these references the levels set below are forgotten.
    private static final Logger FLYWAY = Logger.getLogger("org.flywaydb");
    private static final Logger HIKARI = Logger.getLogger("com.zaxxer.hikari");
    private static final Logger PF4J = Logger.getLogger("org.pf4j");

    private Logging() {
    }

    /**
     * The level {@code lnp.log.level} names: java.util.logging's names ({@code FINE}...), or the names most log
     * libraries use ({@code TRACE}, {@code DEBUG}, {@code WARN}, {@code ERROR}), in any case.
     *
     * @throws IllegalArgumentException naming the setting and the levels it takes
     */
    public static Level level(String name) {
        String upper = name.trim().toUpperCase(java.util.Locale.ROOT);
        return switch (upper) {
            case "TRACE" -> Level.FINEST;
            case "DEBUG" -> Level.FINE;
            case "WARN" -> Level.WARNING;
            case "ERROR" -> Level.SEVERE;
            case "OFF", "SEVERE", "WARNING", "INFO", "CONFIG", "FINE", "FINER", "FINEST", "ALL" -> Level.parse(upper);
            default -> throw new IllegalArgumentException("lnp.log.level (LNP_LOG_LEVEL) is \"" + name + "\", not a "
                    + "log level: use ERROR, WARN, INFO, DEBUG or TRACE (or java.util.logging's SEVERE, WARNING, INFO, "
                    + "CONFIG, FINE, FINER, FINEST, ALL, OFF)");
        };
    }

    /**
     * @param level {@code lnp.log.level}
     * @param format {@code lnp.log.format}: {@code auto}, {@code text} or {@code json}
     * @return the format chosen
     * @throws IllegalArgumentException naming the setting whose value is not one it takes
     */
    public static LogFormat configure(String level, String format) {
        Level chosenLevel = level(level);
        LogFormat chosen = LogFormat.choose(format, Terminal.standardError());
        Logger root = Logger.getLogger("");
        for (Handler h : root.getHandlers()) {
            root.removeHandler(h);
        }
        ConsoleHandler handler = new ConsoleHandler();
        handler.setFormatter(chosen.formatter());
        handler.setLevel(Level.ALL);
        root.addHandler(handler);
        root.setLevel(chosenLevel);
        // Flyway and Hikari are chatty at INFO; their warnings still show.
        FLYWAY.setLevel(Level.WARNING);
        HIKARI.setLevel(Level.WARNING);
        // PF4J's INFO lines ("PF4J version … in 'deployment' mode", "No plugins" for an empty third-party folder,
        // logged before the bundled plugins load) mislead more than they tell; the platform logs which plugins
        // run once they do. Its warnings (a plugin that cannot load) still show.
        PF4J.setLevel(Level.WARNING);
        // SLF4J binds its provider on first use; when that first use is two threads at once (plugin loading beside
        // the pool's start), it replays the call and prints three "SLF4J(W)" lines past every handler. Bound here,
        // on the one thread that starts the platform, before any other starts.
        org.slf4j.LoggerFactory.getILoggerFactory();
        return chosen;
    }
}
