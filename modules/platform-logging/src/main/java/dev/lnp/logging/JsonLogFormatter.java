package dev.lnp.logging;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * One JSON object per line: time, level, logger, thread, message, the request being served ({@code request_id},
 * {@code route}, {@code workspace_id}) when there is one, and the stack trace when there is one.
 */
public final class JsonLogFormatter extends Formatter {

    @Override
    public String format(LogRecord record) {
        ObjectNode line = Json.object();
        line.put("ts", Instant.ofEpochMilli(record.getMillis()).toString());
        line.put("level", record.getLevel().getName());
        line.put("logger", record.getLoggerName());
        line.put("thread", Thread.currentThread().getName());
        line.put("message", formatMessage(record));
        RequestLogContext.Fields request = RequestLogContext.current();
        if (request != null) {
            line.put("request_id", request.requestId());
            line.put("route", request.route());
            if (request.workspaceId() != null) {
                line.put("workspace_id", request.workspaceId().toString());
            }
        }
        if (record.getThrown() != null) {
            StringWriter trace = new StringWriter();
            record.getThrown().printStackTrace(new PrintWriter(trace));
            line.put("error", record.getThrown().toString());
            line.put("stack", trace.toString());
        }
        return line.toString() + System.lineSeparator();
    }
}
