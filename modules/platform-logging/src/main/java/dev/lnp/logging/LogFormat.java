package dev.lnp.logging;

import java.util.Locale;
import java.util.logging.Formatter;

/**
 * How log lines look ({@code lnp.log.format}): {@code text}, one human-readable line per record (time, level, short
 * logger name, message) for a person at a terminal; {@code json}, one JSON object per line for a log pipeline
 * (journald, a collector); {@code auto}, the default, text when standard error is a terminal and JSON otherwise.
 */
public enum LogFormat {
    TEXT, JSON;

    /**
     * @param setting {@code auto}, {@code text} or {@code json}, in any case
     * @param terminal whether standard error is a terminal (what {@code auto} decides by)
     * @throws IllegalArgumentException naming the setting and the values it takes
     */
    public static LogFormat choose(String setting, boolean terminal) {
        return switch (setting.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> terminal ? TEXT : JSON;
            case "text" -> TEXT;
            case "json" -> JSON;
            default -> throw new IllegalArgumentException("lnp.log.format (LNP_LOG_FORMAT) is \"" + setting
                    + "\", not a log format: use auto (text on a terminal, JSON lines otherwise), text or json");
        };
    }

    Formatter formatter() {
        return this == TEXT ? new TextLogFormatter() : new JsonLogFormatter();
    }
}
