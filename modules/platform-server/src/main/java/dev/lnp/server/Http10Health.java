package dev.lnp.server;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Answers HTTP/1.0 connections, which Helidon 4.5.0 refuses (505 with an empty body, or not at all once protocols
 * are configured): old load-balancer probes still speak it. One request per connection, no keep-alive: the health
 * routes are answered, anything else gets 505 problem+json naming HTTP/1.1.
 */
final class Http10Health implements ServerConnectionSelector {

    private static final int MAX_LINE = 8192;
    private static final int MAX_HEADERS = 100;

    /** (method, path) -> the complete response. */
    private final BiFunction<String, String, byte[]> answer;
    private final ReadDeadlines deadlines;

    Http10Health(BiFunction<String, String, byte[]> answer, ReadDeadlines deadlines) {
        this.answer = answer;
        this.deadlines = deadlines;
    }

    @Override
    public int bytesToIdentifyConnection() {
        return 0;
    }

    @Override
    public Support supports(BufferData data) {
        int lf = data.indexOf((byte) '\n');
        if (lf == -1) {
            return data.available() > MAX_LINE ? Support.UNSUPPORTED : Support.UNKNOWN;
        }
        return data.readString(lf).endsWith(" HTTP/1.0\r") ? Support.SUPPORTED : Support.UNSUPPORTED;
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return Set.of();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        return new ServerConnection() {
            private volatile long lastActivity = System.nanoTime();

            @Override
            public void handle(io.helidon.common.concurrency.limits.Limit limit) {
                deadlines.arm();
                try {
                    DataReader reader = ctx.dataReader();
                    String[] requestLine = line(reader).split(" ", 3);
                    for (int i = 0; i < MAX_HEADERS && !line(reader).isEmpty(); i++) {
                        // headers are read and ignored: nothing on the health routes depends on them
                    }
                    deadlines.disarm();
                    String method = requestLine.length == 3 ? requestLine[0] : "";
                    String path = requestLine.length == 3 ? requestLine[1] : "";
                    ctx.dataWriter().writeNow(BufferData.create(answer.apply(method, path)));
                } catch (RuntimeException e) {
                    ClientFaults.report("HTTP/1.0 request not read: " + e.getClass().getSimpleName());
                } finally {
                    deadlines.disarm();
                    lastActivity = System.nanoTime();
                }
            }

            @Override
            public Duration idleTime() {
                return Duration.ofNanos(System.nanoTime() - lastActivity);
            }

            @Override
            public void close(boolean interrupt) {
                // one request per connection: it ends when handle returns
            }
        };
    }

    private static String line(DataReader reader) {
        int end = reader.findNewLine(MAX_LINE);
        if (end == MAX_LINE) {
            throw new IllegalArgumentException("line too long");
        }
        String line = reader.readAsciiString(end);
        reader.skip(2);
        return line;
    }

    static byte[] response(int status, String reason, String contentType, byte[] body) {
        String head = "HTTP/1.0 " + status + " " + reason + "\r\nContent-Type: " + contentType + "\r\nContent-Length: "
                + body.length + "\r\nConnection: close\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        return all;
    }
}
