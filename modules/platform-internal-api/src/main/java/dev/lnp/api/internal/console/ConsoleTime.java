package dev.lnp.api.internal.console;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Points in time as every console page shows them. */
public final class ConsoleTime {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    private ConsoleTime() {
    }

    /** A point in time as the pages show it; "never" when absent. */
    public static String format(Instant instant) {
        return instant == null ? "never" : TIME.format(instant);
    }
}
