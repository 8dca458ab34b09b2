package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Request framing over raw sockets on loopback: every message whose body
 * length is ambiguous is answered 400 and the connection closed, so that nothing after it can be read as a second
 * request (request smuggling behind a proxy); slow or stalled clients are cut off by timeouts; HTTP/1.0 is served.
 */
@PlatformTest(plugins = "probe", config = {"lnp.http.read_timeout_seconds=2", "lnp.http.idle_timeout_seconds=3"})
class HttpFramingTest {

    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.[01] (\\d{3})");
    private static final String SMUGGLED = "GET /observe/health HTTP/1.1\r\nHost: x\r\n\r\n";

    /** What a connection answered: the raw text, and whether the server closed it before {@code wait} ran out. */
    record Exchange(String text, boolean closed, long millis) {
        List<Integer> statuses() {
            List<Integer> statuses = new ArrayList<>();
            Matcher m = STATUS_LINE.matcher(text);
            while (m.find()) {
                statuses.add(Integer.parseInt(m.group(1)));
            }
            return statuses;
        }
    }

    static Exchange exchange(TestPlatform platform, String request, int waitMillis) throws IOException {
        long started = System.nanoTime();
        try (Socket socket = new Socket("127.0.0.1", platform.port())) {
            socket.setSoTimeout(waitMillis);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream seen = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            boolean closed;
            try {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    seen.write(buffer, 0, n);
                }
                closed = true;
            } catch (SocketTimeoutException e) {
                closed = false;
            } catch (IOException e) {
                closed = true; // reset by the server
            }
            return new Exchange(seen.toString(StandardCharsets.ISO_8859_1), closed,
                    (System.nanoTime() - started) / 1_000_000);
        }
    }

    private static String post(String framingHeaders, String body) {
        return "POST /api/v1/probe/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + framingHeaders + "\r\n" + body;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "two different Content-Length   | Content-Length: 14\\r\\nContent-Length: 0\\r\\n",
            "Content-Length listed twice    | Content-Length: 14, 0\\r\\n",
            "chunked and Content-Length     | Transfer-Encoding: chunked\\r\\nContent-Length: 14\\r\\n",
            "an unknown coding              | Transfer-Encoding: xchunked\\r\\nContent-Length: 14\\r\\n",
            "chunked not last               | Transfer-Encoding: chunked, identity\\r\\nContent-Length: 14\\r\\n",
            "two Transfer-Encoding fields   | Transfer-Encoding: chunked\\r\\nTransfer-Encoding: identity\\r\\nContent-Length: 14\\r\\n",
            "a negative Content-Length      | Content-Length: -1\\r\\n",
            "a Content-Length with a sign   | Content-Length: +14\\r\\n"})
    void anAmbiguousBodyLengthIs400AndClosesTheConnection(String testCase, String headers, TestPlatform platform)
            throws IOException {
        Exchange exchange = exchange(platform, post(headers.replace("\\r\\n", "\r\n"), "{\"name\":\"cl1\"}")
                + SMUGGLED, 5000);
        assertEquals(List.of(400), exchange.statuses(), testCase + ": " + exchange.text());
        assertTrue(exchange.closed(), testCase + ": the connection must be closed");
    }

    /** Defect 10: a malformed chunk size was a 500; it is the client's 400 (problem+json), and the connection ends. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"zz", "-5", "ffffffffffffffffff", "5;"})
    void aMalformedChunkSizeIs400(String size, TestPlatform platform) throws IOException {
        String key = platform.fullAccessKey(platform.createWorkspace("chunks"));
        Exchange exchange = exchange(platform, post("Authorization: Bearer " + key + "\r\nTransfer-Encoding: chunked\r\n",
                size + "\r\n{}\r\n0\r\n\r\n") + SMUGGLED, 5000);
        assertEquals(List.of(400), exchange.statuses(), exchange.text());
        assertTrue(exchange.text().contains("application/problem+json"), exchange.text());
        assertTrue(exchange.closed(), exchange.text());
    }

    /** Defect 11: HTTP/1.0 was 505 with an empty body; health probes of old load balancers speak it. */
    @ParameterizedTest
    @CsvSource({"/observe/health/live", "/observe/health/ready"})
    void http10HealthProbesAreAnswered(String path, TestPlatform platform) throws IOException {
        Exchange exchange = exchange(platform, "GET " + path + " HTTP/1.0\r\nUser-Agent: lb\r\n\r\n", 5000);
        assertEquals(List.of(200), exchange.statuses(), exchange.toString());
        assertTrue(exchange.closed());
    }

    @Test
    void http10ElsewhereIs505WithAProblem(TestPlatform platform) throws IOException {
        Exchange exchange = exchange(platform, "GET /api/v1/probe/items HTTP/1.0\r\n\r\n", 5000);
        assertEquals(List.of(505), exchange.statuses(), exchange.toString());
        assertTrue(exchange.text().contains("\"code\":\"http_version_not_supported\""), exchange.text());
        assertTrue(exchange.closed());
    }

    @Test
    void http10IsServedWithoutKeepAlive(TestPlatform platform) throws IOException {
        Exchange exchange = exchange(platform, "GET /observe/health HTTP/1.0\r\n\r\n", 5000);
        assertEquals(List.of(200), exchange.statuses(), exchange.toString());
        assertTrue(exchange.text().contains("\"status\":\"UP\""), exchange.text());
        assertTrue(exchange.closed(), "an HTTP/1.0 connection ends with its response");
    }

    @Test
    void aResponseSayingConnectionCloseClosesTheConnection(TestPlatform platform) throws IOException {
        Exchange exchange = exchange(platform, "GET /observe/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                5000);
        assertEquals(List.of(200), exchange.statuses(), exchange.text());
        assertTrue(exchange.text().toLowerCase().contains("connection: close"), exchange.text());
        assertTrue(exchange.closed(), "closed after the response");
        assertTrue(exchange.millis() < 2000, "closed at once, not by a timeout: " + exchange.millis() + " ms");
    }

    /**
     * A page that answers before reading the body (a console form posted without a session) ends the connection,
     * and says so: a client that was not told would send its next request on the dead connection.
     */
    @Test
    void anAnswerThatLeavesTheBodyUnreadSaysConnectionClose(TestPlatform platform) throws IOException {
        Exchange exchange = exchange(platform, "POST /console/connections HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\n\r\nname=asdf", 5000);
        assertEquals(1, exchange.statuses().size(), exchange.text());
        assertTrue(exchange.text().toLowerCase().contains("connection: close"), exchange.text());
        assertTrue(exchange.closed(), "closed after the response");
    }

    /** Slow-header clients hold no connection for long, and the server keeps serving others meanwhile. */
    @Test
    void stalledClientsAreCutOffAndTheServerKeepsServing(TestPlatform platform) throws Exception {
        int stalled = 50;
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < stalled; i++) {
                Socket socket = new Socket("127.0.0.1", platform.port());
                socket.getOutputStream().write((i % 2 == 0 ? "GET /observe/health HTTP/1.1\r\nHost: x\r\nX-Slow: "
                        : post("Content-Length: 100\r\n", "{\"name\":")).getBytes(StandardCharsets.ISO_8859_1));
                socket.getOutputStream().flush();
                sockets.add(socket);
            }
            assertEquals(200, platform.get("/observe/health", null).status(), "served while 50 clients stall");
            long started = System.nanoTime();
            long deadline = started + 15_000_000_000L;
            int closed = 0;
            for (Socket socket : sockets) {
                socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                try {
                    while (socket.getInputStream().read() >= 0) {
                        // a 4xx/408 answer may come first; what matters is that the server closes
                    }
                    closed++;
                } catch (SocketTimeoutException e) {
                    // still open after 15 s: counted as not closed
                } catch (IOException e) {
                    closed++;
                }
            }
            long seconds = (System.nanoTime() - started) / 1_000_000_000;
            System.out.printf("stalled clients: %d of %d closed by the server within %d s%n", closed, stalled, seconds);
            assertEquals(stalled, closed, "every stalled connection is closed by the server");
            assertEquals(200, platform.get("/observe/health", null).status());
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    /** Defect 9: aborted bodies and dropped half-sent headers logged stack traces; now a few short lines at most. */
    @Test
    void clientFaultsAreAFewShortLinesWithoutStackTraces(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("faults"));
        List<java.util.logging.LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getLevel().intValue() >= java.util.logging.Level.INFO.intValue()) {
                    records.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        root.addHandler(capture);
        try {
            for (int i = 0; i < 40; i++) {
                try (Socket socket = new Socket("127.0.0.1", platform.port())) {
                    String request = i % 2 == 0
                            ? post("Authorization: Bearer " + key + "\r\nContent-Length: 1000\r\n", "{\"name\":\"cut")
                            : "GET /api/v1/probe/items HTTP/1.1\r\nHost: x\r\nAuthor";
                    socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
                    socket.getOutputStream().flush();
                    Thread.sleep(20);
                }
            }
            Thread.sleep(1500);
            assertEquals(200, platform.get("/observe/health", null).status());
        } finally {
            root.removeHandler(capture);
        }
        List<String> traces = records.stream().filter(r -> r.getThrown() != null)
                .map(r -> r.getLoggerName() + ": " + r.getMessage()).toList();
        assertEquals(List.of(), traces, "no stack trace for a client fault");
        long faultLines = records.stream().filter(r -> r.getLoggerName().endsWith("ClientFaults")).count();
        System.out.printf("40 client faults logged as %d lines%n", faultLines);
        assertTrue(faultLines <= 6, faultLines + " lines for 40 faults");
        for (var r : records) {
            String message = String.valueOf(r.getMessage());
            assertTrue(message.length() < 300, "a short line: " + message);
        }
    }

    /**
     * After a connection's first request only the read deadline bounds a later one: the first-request timeout no
     * longer applies, and Helidon's idle timeout ends only a connection waiting for a request line.
     */
    @Test
    void aLaterRequestStalledInItsHeadersIsCutOffByTheReadTimeout(TestPlatform platform) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", platform.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(SMUGGLED.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = socket.getInputStream();
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                head.append((char) in.read());
            }
            assertTrue(head.toString().toLowerCase().contains("transfer-encoding: chunked"), head.toString());
            StringBuilder body = new StringBuilder();
            while (!body.toString().endsWith("\r\n0\r\n\r\n")) {
                body.append((char) in.read());
            }
            socket.getOutputStream().write("GET /observe/health HTTP/1.1\r\nHost: x\r\nX-Partial: "
                    .getBytes(StandardCharsets.ISO_8859_1));
            long started = System.nanoTime();
            boolean closed;
            try {
                while (in.read() >= 0) {
                    // nothing is answered to the stalled request; the server ends the connection
                }
                closed = true;
            } catch (SocketTimeoutException e) {
                closed = false;
            } catch (IOException e) {
                closed = true;
            }
            long millis = (System.nanoTime() - started) / 1_000_000;
            System.out.printf("a later request stalled in its headers: connection closed after %d ms%n", millis);
            assertTrue(closed, "closed within 10 s (read timeout 2 s)");
            assertTrue(millis >= 1_500, "not before the read timeout: " + millis + " ms");
        }
    }

    @Test
    void anIdleKeepAliveConnectionIsClosed(TestPlatform platform) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", platform.port())) {
            socket.getOutputStream().write(SMUGGLED.getBytes(StandardCharsets.ISO_8859_1));
            socket.setSoTimeout(10_000);
            long started = System.nanoTime();
            boolean closed;
            try {
                while (socket.getInputStream().read() >= 0) {
                    // the response, then nothing until the server gives up on the idle connection
                }
                closed = true;
            } catch (SocketTimeoutException e) {
                closed = false;
            } catch (IOException e) {
                closed = true;
            }
            assertTrue(closed, "an idle connection is closed within 10 s");
            System.out.printf("idle keep-alive connection closed after %d ms%n",
                    (System.nanoTime() - started) / 1_000_000);
        }
    }
}
