package dev.lnp.logging;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * One line per record for a person at a terminal: local time, level (named as most log libraries name them:
 * ERROR, WARN, INFO, DEBUG, TRACE), the logger's class name without its package, the message, and the request
 * being served when there is one; a stack trace follows on the lines below.
 * <pre>09:14:03.271 INFO  [Platform] Platform ready on port 8080 with plugins [crm, projects] in 2214 ms</pre>
 */
final class TextLogFormatter extends Formatter {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private final ZoneId zone;

    TextLogFormatter() {
        this(ZoneId.systemDefault());
    }

    TextLogFormatter(ZoneId zone) {
        this.zone = zone;
    }

    @Override
    public String format(LogRecord record) {
        StringBuilder line = new StringBuilder(160)
                .append(TIME.format(Instant.ofEpochMilli(record.getMillis()).atZone(zone)))
                .append(' ').append(String.format("%-5s", levelName(record.getLevel())))
                .append(" [").append(shortName(record.getLoggerName())).append("] ")
                .append(formatMessage(record));
        RequestLogContext.Fields request = RequestLogContext.current();
        if (request != null) {
            line.append(" (request ").append(request.requestId()).append(", ").append(request.route());
            if (request.workspaceId() != null) {
                line.append(", workspace ").append(request.workspaceId());
            }
            line.append(')');
        }
        line.append(System.lineSeparator());
        if (record.getThrown() != null) {
            StringWriter trace = new StringWriter();
            record.getThrown().printStackTrace(new PrintWriter(trace));
            line.append(trace);
        }
        return line.toString();
    }

    static String levelName(Level level) {
        int value = level.intValue();
        if (value >= Level.SEVERE.intValue()) {
            return "ERROR";
        } else if (value >= Level.WARNING.intValue()) {
            return "WARN";
        } else if (value >= Level.INFO.intValue()) {
            return "INFO";
        } else if (value >= Level.FINE.intValue()) {
            return value >= Level.CONFIG.intValue() ? "CONFIG" : "DEBUG";
        }
        return "TRACE";
    }

    /** {@code io.helidon.webserver.LoomServer} → {@code LoomServer}; a logger named otherwise stays as named. */
    static String shortName(String logger) {
        if (logger == null || logger.isEmpty()) {
            return "root";
        }
        return logger.substring(logger.lastIndexOf('.') + 1);
    }
}
