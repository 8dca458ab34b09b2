package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A client that hangs up before its response is written (a load generator stopping, a browser tab closed) is
 * not a server failure: nothing is logged as an error, no problem response is attempted on the dead connection,
 * and the request is still audited. The same for a console page: one short DEBUG line, no SEVERE stack trace.
 */
@PlatformTest(plugins = "probe")
class ClientDisconnectTest {

    @Test
    void aClientThatHangsUpBeforeTheResponseIsNotLoggedAsAFailure(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("hang-up");
        String key = platform.fullAccessKey(ws);
        List<LogRecord> errors = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    errors.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger routes = Logger.getLogger("dev.lnp.core.http.RouteHandler");
        Logger helidon = Logger.getLogger("io.helidon"); // the web server and its sockets
        routes.addHandler(capture);
        helidon.addHandler(capture);
        try {
            String requestId = "hang-up-0001";
            try (Socket socket = new Socket("127.0.0.1", platform.uri("/").getPort())) {
                OutputStream out = socket.getOutputStream();
                out.write(("GET /api/v1/probe/slow HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key
                        + "\r\nX-Request-Id: " + requestId + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(300);
                socket.setSoLinger(true, 0); // close with a reset: the server's write then fails at once
            }
            List<Map<String, Object>> audited = List.of();
            for (int i = 0; i < 60 && audited.isEmpty(); i++) {
                Thread.sleep(100);
                audited = platform.jdbi().withHandle(h -> h.createQuery(
                                "SELECT status FROM lnp_core.audit_log WHERE request_id = :id")
                        .bind("id", requestId).mapToMap().list());
            }
            assertEquals(List.of(Map.of("status", 200)), audited, "the request is audited with its answer");
            Thread.sleep(200);
            assertTrue(errors.isEmpty(), "logged: " + errors.stream()
                    .map(r -> r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage()).toList());
        } finally {
            routes.removeHandler(capture);
            helidon.removeHandler(capture);
        }
    }

    @Test
    void aBrowserThatHangsUpOnAConsolePageIsOneDebugLineNotASevereStackTrace(TestPlatform platform)
            throws Exception {
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        List<LogRecord> hangUps = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record);
                } else if (record.getLoggerName().equals("dev.lnp.server.ClientHangUps")) {
                    hangUps.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger console = Logger.getLogger("dev.lnp.web.console");
        Logger hangUpLog = Logger.getLogger("dev.lnp.server.ClientHangUps");
        Logger helidon = Logger.getLogger("io.helidon");
        Level hangUpLevel = hangUpLog.getLevel();
        hangUpLog.setLevel(Level.FINE);
        console.addHandler(capture);
        hangUpLog.addHandler(capture);
        helidon.addHandler(capture);
        try {
            // Request and reset at once: whether the reset arrives before the page is written is a race, so
            // the test repeats until the server has met a hang-up (reported as such) a few times.
            for (int i = 0; i < 200 && hangUps.size() < 3; i++) {
                try (Socket socket = new Socket("127.0.0.1", platform.uri("/").getPort())) {
                    socket.getOutputStream().write("GET /console/sign-in HTTP/1.1\r\nHost: localhost\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    socket.setSoLinger(true, 0);
                }
                Thread.sleep(i % 2 * 20);
            }
            Thread.sleep(300);
            assertTrue(warnings.isEmpty(), "logged: " + warnings.stream()
                    .map(r -> r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage()).toList());
            assertTrue(!hangUps.isEmpty(), "no hang-up was met; the test did not exercise the path");
            assertTrue(hangUps.stream().allMatch(r -> r.getThrown() == null && r.getMessage().contains(
                    "GET /console/sign-in")), hangUps.stream().map(LogRecord::getMessage).toList().toString());
        } finally {
            console.removeHandler(capture);
            hangUpLog.removeHandler(capture);
            helidon.removeHandler(capture);
            hangUpLog.setLevel(hangUpLevel);
        }
    }
}
