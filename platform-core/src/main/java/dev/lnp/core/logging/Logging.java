package dev.lnp.core.logging;

import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Structured logs to standard error through java.util.logging (Helidon's, and SLF4J's via its JUL binding). */
public final class Logging {

    // java.util.logging keeps loggers weakly: without these references the levels set below are forgotten.
    private static final Logger FLYWAY = Logger.getLogger("org.flywaydb");
    private static final Logger HIKARI = Logger.getLogger("com.zaxxer.hikari");

    private Logging() {
    }

    public static void configure(String level) {
        Logger root = Logger.getLogger("");
        for (Handler h : root.getHandlers()) {
            root.removeHandler(h);
        }
        ConsoleHandler handler = new ConsoleHandler();
        handler.setFormatter(new JsonLogFormatter());
        handler.setLevel(Level.ALL);
        root.addHandler(handler);
        root.setLevel(Level.parse(level.toUpperCase(java.util.Locale.ROOT)));
        // Flyway and Hikari are chatty at INFO; their warnings still show.
        FLYWAY.setLevel(Level.WARNING);
        HIKARI.setLevel(Level.WARNING);
    }
}
