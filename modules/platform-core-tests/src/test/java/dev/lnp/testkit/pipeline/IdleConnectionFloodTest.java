package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.TestDatabases;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Connections that never send a byte, more of them than the process has file descriptors: the port keeps serving
 * other clients while they are held, they are closed after the first-request timeout, and the port serves everyone
 * again afterwards. A listener that does run out of descriptors (its cap set above what the process can hold) ends
 * the process with exit code 1, so that its supervisor starts it again.
 *
 * <p>{@code serve} runs in a child JVM whose open-files limit the test lowers with {@code ulimit -n}, as an operator's
 * unit or shell would; the idle connections come from 127.0.0.1 and the other client from 127.0.0.2 (loopback too).
 */
class IdleConnectionFloodTest {

    private static final Pattern LISTENING = Pattern.compile("listening on http://localhost:(\\d+)");
    private static final int DESCRIPTOR_LIMIT = 600;
    private static final int IDLE_CONNECTIONS = 700;

    @Test
    void moreIdleConnectionsThanDescriptorsDoNotTakeThePortDown() throws Exception {
        String url = TestDatabases.createDatabase("idle-flood");
        List<SocketChannel> idle = new ArrayList<>();
        try (Serve serve = Serve.start(url, DESCRIPTOR_LIMIT, Map.of("lnp.http.first_request_timeout_seconds", "4"))) {
            for (int i = 0; i < IDLE_CONNECTIONS; i++) {
                idle.add(connectSilently(serve.port()));
            }
            Thread.sleep(500); // the server has accepted (and refused) what it will
            int closedAtOnce = closedByServer(idle);
            assertTrue(closedAtOnce >= IDLE_CONNECTIONS - DESCRIPTOR_LIMIT,
                    "connections over the cap are closed at once: " + closedAtOnce + "\n" + serve.log());
            assertTrue(closedAtOnce < IDLE_CONNECTIONS, "some idle connections are held until their timeout");

            assertEquals(200, healthStatus(serve.port(), "127.0.0.2"),
                    "another client is served while one client holds its share\n" + serve.log());
            assertTrue(serve.log().contains("connection refused: client 127.0.0.1 holds"),
                    "the refusal is logged, naming the client and the setting:\n" + serve.log());
            // A connection that has sent a request is past the first-request timeout's reach.
            Socket keptAlive = clientSocket(serve.port(), "127.0.0.2");
            assertEquals(200, exchange(keptAlive, false));

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (closedByServer(idle) < IDLE_CONNECTIONS && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertEquals(IDLE_CONNECTIONS, closedByServer(idle),
                    "connections that never sent a request line are closed after the first-request timeout");
            assertEquals(200, healthStatus(serve.port(), "127.0.0.1"), "the port serves that client again");
            assertEquals(200, exchange(keptAlive, true), "a kept-alive connection outlives the first-request timeout");
            keptAlive.close();
            assertTrue(serve.process.isAlive(), serve.log());
            assertFalse(serve.log().contains("terminating"), serve.log());
        } finally {
            for (SocketChannel channel : idle) {
                channel.close();
            }
            TestDatabases.dropDatabase(url);
        }
    }

    @Test
    void aListenerThatRunsOutOfDescriptorsEndsTheProcessNonZero() throws Exception {
        String url = TestDatabases.createDatabase("listener-dies");
        List<SocketChannel> idle = new ArrayList<>();
        // A cap above what the process can hold: the operator's explicit choice, warned about at start.
        try (Serve serve = Serve.start(url, DESCRIPTOR_LIMIT, Map.of("lnp.http.max_connections", "100000",
                "lnp.http.max_connections_per_client", "100000", "lnp.http.first_request_timeout_seconds", "120"))) {
            assertTrue(serve.log().contains("lnp.http.max_connections is 100000, more than this process can hold"),
                    serve.log());
            try {
                for (int i = 0; i < IDLE_CONNECTIONS; i++) {
                    idle.add(connectSilently(serve.port()));
                }
            } catch (java.net.ConnectException e) {
                // The listener is gone already.
            }
            boolean exited = serve.process.waitFor(60, TimeUnit.SECONDS);
            String log = serve.log();
            assertTrue(exited, "the process runs on without its listener:\n" + log);
            assertEquals(1, serve.process.exitValue(), log);
            List<String> errors = log.lines().filter(l -> l.startsWith("error: ")).toList();
            assertEquals(1, errors.size(), log);
            assertTrue(errors.get(0).startsWith("error: the HTTP listener: ")
                    && errors.get(0).contains("stopped accepting connections"), errors.get(0));
        } finally {
            for (SocketChannel channel : idle) {
                channel.close();
            }
            TestDatabases.dropDatabase(url);
        }
    }

    private static SocketChannel connectSilently(int port) throws IOException {
        SocketChannel channel = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        channel.configureBlocking(false);
        return channel;
    }

    /** How many of these connections the server has closed (end of stream or reset), without waiting. */
    private static int closedByServer(List<SocketChannel> channels) {
        ByteBuffer buffer = ByteBuffer.allocate(64);
        int closed = 0;
        for (SocketChannel channel : channels) {
            try {
                buffer.clear();
                if (channel.read(buffer) < 0) {
                    closed++;
                }
            } catch (IOException e) {
                closed++;
            }
        }
        return closed;
    }

    /** The status of {@code GET /observe/health/live} from a client bound to {@code clientAddress}. */
    private static int healthStatus(int port, String clientAddress) throws IOException {
        try (Socket socket = clientSocket(port, clientAddress)) {
            return exchange(socket, true);
        }
    }

    private static Socket clientSocket(int port, String clientAddress) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(InetAddress.getByName(clientAddress), 0));
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** One {@code GET /observe/health/live} on {@code socket}, its response read whole; the status. */
    private static int exchange(Socket socket, boolean close) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("GET /observe/health/live HTTP/1.1\r\nHost: localhost\r\n"
                + (close ? "Connection: close\r\n" : "") + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return -1;
            }
            head.append((char) b);
        }
        Matcher length = Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
        if (length.find()) {
            in.readNBytes(Integer.parseInt(length.group(1)));
        } else if (head.toString().toLowerCase().contains("transfer-encoding: chunked")) {
            for (int size = chunkSize(in); size > 0; size = chunkSize(in)) {
                in.readNBytes(size + 2);
            }
            in.readNBytes(2);
        }
        return head.toString().startsWith("HTTP/1.1 ") ? Integer.parseInt(head.substring(9, 12)) : -1;
    }

    private static int chunkSize(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("the response ended inside a chunk's size");
            }
            line.append((char) b);
        }
        return Integer.parseInt(line.toString().trim(), 16);
    }

    /** {@code serve} in a child JVM under {@code ulimit -n}. */
    private static final class Serve implements AutoCloseable {
        final Process process;
        final Path log;
        final int port;

        private Serve(Process process, Path log, int port) {
            this.process = process;
            this.log = log;
            this.port = port;
        }

        static Serve start(String url, int descriptorLimit, Map<String, String> extra) throws Exception {
            TestDatabases.Server server = TestDatabases.server();
            Map<String, String> config = new LinkedHashMap<>(Map.of("lnp.database.url", url,
                    "lnp.database.user", server.user(), "lnp.database.password", server.password(),
                    "lnp.http.host", "127.0.0.1", "lnp.http.port", "0", "lnp.management.port", "0",
                    "lnp.plugins.dir", "target/no-plugins", "lnp.webhooks.dispatch", "false",
                    "lnp.database.pool.size", "4"));
            config.putAll(extra);
            String java = ProcessHandle.current().info().command().orElse(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString());
            List<String> command = new ArrayList<>(List.of("bash", "-c", "ulimit -n " + descriptorLimit
                    + " && exec \"$@\"", "serve", java, "-Xmx256m", "-cp", System.getProperty("java.class.path")));
            config.forEach((k, v) -> command.add("-D" + k + "=" + v));
            command.addAll(List.of("dev.lnp.cli.Main", "serve"));
            Path log = Files.createTempFile("idle-flood", ".log");
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < deadline) {
                Matcher listening = LISTENING.matcher(Files.readString(log, StandardCharsets.UTF_8));
                if (listening.find()) {
                    return new Serve(process, log, Integer.parseInt(listening.group(1)));
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException("serve exited with " + process.exitValue() + ":\n"
                            + Files.readString(log, StandardCharsets.UTF_8));
                }
                Thread.sleep(100);
            }
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("serve did not start in time:\n" + Files.readString(log));
        }

        int port() {
            return port;
        }

        String log() throws IOException {
            return Files.readString(log, StandardCharsets.UTF_8);
        }

        @Override
        public void close() throws Exception {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            }
            Files.deleteIfExists(log);
        }
    }
}
