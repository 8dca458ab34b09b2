package dev.lnp.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import io.helidon.common.socket.SocketOptions;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http1.Http1Config;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The connection-level rules of the HTTP server, kept apart from the routes:
 * <ul>
 * <li>caps on the connections held at once, per listener and per client address, and a deadline for a new
 * connection's first request line ({@link ConnectionGuard});</li>
 * <li>a deadline for reading a request's headers and then its body ({@link ReadDeadlines}), and an idle timeout per
 * connection, so that clients that stall in their headers or body, or hold an idle connection, are cut off;</li>
 * <li>a connection is closed after a response that says {@code Connection: close};</li>
 * <li>what the server answers on its own (unparsable framing, bad chunk sizes, a too-large body, HTTP/1.0) is
 * problem+json, and such client faults are logged as one short, rate-limited line, never a stack trace;</li>
 * <li>HTTP/1.0, which Helidon refuses, is answered on the health routes (load-balancer probes still speak it),
 * without keep-alive, by {@link Http10Health}.</li>
 * </ul>
 * Ambiguous framing (two Content-Length values, Transfer-Encoding with Content-Length, codings other than a
 * final {@code chunked}) is refused by Helidon 4.5.0 itself with 400 and a closed connection; HttpFramingTest
 * keeps it that way.
 */
final class ConnectionRules {

    /** Helidon's connection logger writes a WARNING with a full stack trace for every client fault it answers. */
    private static final Logger HELIDON_CONNECTION = Logger.getLogger("io.helidon.webserver.http1.Http1Connection");
    private static final String HEALTH = "/observe/health";

    private final List<HealthCheck> healthChecks;

    private ConnectionRules(List<HealthCheck> healthChecks) {
        this.healthChecks = List.copyOf(healthChecks);
    }

    /** Applies the timeouts and the server's own answers to {@code server}. */
    static void apply(WebServerConfig.Builder server, ReadDeadlines deadlines, ConnectionGuard guard,
            Duration idleTimeout, List<HealthCheck> healthChecks) {
        ConnectionRules rules = new ConnectionRules(healthChecks);
        server.addProtocol(http1(deadlines));
        server.addConnectionSelector(new Http10Health(rules::http10, deadlines));
        // Client faults are reported by ClientFaults in one line; Helidon's own report is a WARNING with a trace.
        HELIDON_CONNECTION.setLevel(Level.SEVERE);
        server.connectionOptions(guard.options(SocketOptions.builder()
                        // Without TCP_NODELAY a keep-alive response written in two segments (headers, then body)
                        // waits for the client's delayed ACK: every request on a reused connection took about 40 ms.
                        .tcpNoDelay(true)
                        .build()))
                .idleConnectionTimeout(idleTimeout)
                .idleConnectionPeriod(Duration.ofMillis(Math.max(500, Math.min(idleTimeout.toMillis() / 3, 30_000))))
                .directHandlers(DirectHandlers.builder()
                        .addHandler(DirectHandler.EventType.BAD_REQUEST, rules::answer)
                        .addHandler(DirectHandler.EventType.PAYLOAD_TOO_LARGE, rules::answer)
                        .addHandler(DirectHandler.EventType.FORBIDDEN, rules::answer)
                        .addHandler(DirectHandler.EventType.INTERNAL_ERROR, rules::answer)
                        .addHandler(DirectHandler.EventType.OTHER, rules::answer)
                        .addHandler(DirectHandler.EventType.HTTP_VERSION_NOT_SUPPORTED, rules::answer)
                        .build());
    }

    /**
     * The HTTP/1.1 configuration: its one receive listener arms the read deadline. One, never more: Helidon 4.5
     * combines two or more receive listeners into one that calls none of them, so a second listener would leave
     * every request without a read deadline (on the class path and the release image alike). Other per-request
     * work goes into routing filters instead (e.g. {@link ConnectionGuard#markSpoke}).
     */
    static Http1Config http1(ReadDeadlines deadlines) {
        return Http1Config.builder()
                .addReceiveListener(deadlines.headerListener())
                .build();
    }

    /**
     * A routing filter: after a response that says {@code Connection: close} (the client asked, or the pipeline
     * decided), ends the connection; Helidon 4.5.0 would otherwise wait for another request on it. Also ends it
     * when the request's body was left unread (refused before reading, e.g. 401): Helidon would otherwise read and
     * discard it with no time limit.
     */
    static void closeWhenSaid(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        // Every answer that leaves the body unread says so, whichever handler wrote it (the console's pages too),
        // so the client does not send its next request on a connection that ends below.
        res.beforeSend(() -> sayCloseIfBodyUnread(req, res));
        chain.proceed();
        if (res.isSent() && (req.headers().contains(HeaderValues.CONNECTION_CLOSE)
                || res.headers().contains(HeaderValues.CONNECTION_CLOSE)
                || req.content().hasEntity() && !req.content().consumed())) {
            throw new CloseConnectionException("the response said Connection: close, or left the body unread");
        }
    }

    /**
     * Adds {@code Connection: close} to a response about to be sent while the request's body is still unread, so
     * that the client knows the connection ends with it ({@link #closeWhenSaid}) and does not reuse it.
     */
    private static void sayCloseIfBodyUnread(io.helidon.webserver.http.ServerRequest req,
            io.helidon.webserver.http.ServerResponse res) {
        if (req.content().hasEntity() && !req.content().consumed()) {
            res.header(HeaderValues.CONNECTION_CLOSE);
        }
    }

    private DirectHandler.TransportResponse answer(DirectHandler.TransportRequest request,
            DirectHandler.EventType event, Status status, ServerResponseHeaders headers, String message) {
        Status answered = event == DirectHandler.EventType.INTERNAL_ERROR ? Status.BAD_REQUEST_400 : status;
        // The server answers on its own only when it could not make sense of what the client sent (framing,
        // chunk sizes, an unreadable or cut-off request): the client's fault, whatever Helidon classifies it as.
        ClientFaults.report(answered.code() + " " + event.name().toLowerCase() + " " + request.method() + " "
                + abbreviated(request.path()));
        String code = switch (answered.code()) {
            case 413 -> "payload_too_large";
            case 505 -> "http_version_not_supported";
            case 503 -> "service_unavailable";
            default -> "bad_request";
        };
        String detail = switch (answered.code()) {
            case 413 -> "The body is larger than the server accepts.";
            case 505 -> "Only HTTP/1.1 is served (HTTP/1.0 only on " + HEALTH + ").";
            case 503 -> "The server is busy; retry later.";
            default -> "The request could not be read as HTTP/1.1 (its framing, headers or body are malformed).";
        };
        return problem(answered, code, detail);
    }

    private static String abbreviated(String path) {
        String p = path == null ? "" : path.replaceAll("[^\\x21-\\x7e]", "?");
        return p.length() > 80 ? p.substring(0, 80) + "..." : p;
    }

    /** The whole HTTP/1.0 response to {@code method path}: health on the health routes, else 505. */
    private byte[] http10(String method, String path) {
        if ("GET".equals(method) && path.startsWith(HEALTH)) {
            boolean up = healthy(path.substring(HEALTH.length()));
            return Http10Health.response(up ? 200 : 503, up ? "OK" : "Service Unavailable", "application/json",
                    Json.object().put("status", up ? "UP" : "DOWN").toString().getBytes(StandardCharsets.UTF_8));
        }
        return Http10Health.response(505, "HTTP Version Not Supported", "application/problem+json",
                problemBody(Status.HTTP_VERSION_NOT_SUPPORTED_505, "http_version_not_supported",
                        "Only HTTP/1.1 is served (HTTP/1.0 only on " + HEALTH + ")."));
    }

    private boolean healthy(String kind) {
        for (HealthCheck check : healthChecks) {
            boolean wanted = switch (kind) {
                case "", "/" -> true;
                case "/live" -> check.type() == HealthCheckType.LIVENESS;
                case "/ready" -> check.type() == HealthCheckType.READINESS;
                case "/started" -> check.type() == HealthCheckType.STARTUP;
                default -> false;
            };
            if (wanted && check.call().status() != HealthCheckResponse.Status.UP) {
                return false;
            }
        }
        return true;
    }

    private static DirectHandler.TransportResponse problem(Status status, String code, String detail) {
        return DirectHandler.TransportResponse.builder()
                .status(status)
                .header(HeaderNames.CONTENT_TYPE, "application/problem+json")
                .keepAlive(false)
                .entity(problemBody(status, code, detail))
                .build();
    }

    private static byte[] problemBody(Status status, String code, String detail) {
        ObjectNode body = Json.object();
        body.put("type", ApiProblem.TYPE_BASE + code.replace('_', '-'));
        body.put("title", status.reasonPhrase());
        body.put("status", status.code());
        body.put("detail", detail);
        body.put("code", code);
        body.put("request_id", UUID.randomUUID().toString());
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }
}
