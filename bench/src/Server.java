import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The platform under test: {@code bin/platform serve} of the distribution, its pid, CPU time and RSS. */
final class Server implements AutoCloseable {

    private static final long TICKS_PER_SECOND = 100; // USER_HZ; Linux reports /proc times in these units

    private final Process process;
    final int port;
    final long readyMillis;

    private Server(Process process, int port, long readyMillis) {
        this.process = process;
        this.port = port;
        this.readyMillis = readyMillis;
    }

    /** Starts the server and waits for {@code /observe/health/ready}; the time from exec to the first 200. */
    static Server start(Path dist, Map<String, String> env, Path log, int port) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofMillis(500)).build();
        URI ready = URI.create("http://127.0.0.1:" + port + "/observe/health/ready");
        listening(port); // loads the socket's and the client's classes before the clock starts
        probe(http, ready);
        ProcessBuilder pb = new ProcessBuilder(ownSession(dist.resolve("bin/platform").toString(), "serve"))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(env);
        long started = System.nanoTime();
        Process process = pb.start();
        while (true) {
            // Until the port listens, a refused connect is all a poll costs: an HTTP client's failed request every
            // few milliseconds took CPU from the start it measured, on two cores (bench/startup polls alike).
            if (listening(port) && probe(http, ready) == 200) {
                long millis = (System.nanoTime() - started) / 1_000_000;
                return new Server(process, port, millis);
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the platform exited with " + process.exitValue() + "; see " + log);
            }
            if (System.nanoTime() - started > TimeUnit.SECONDS.toNanos(120)) {
                process.destroy();
                throw new IllegalStateException("the platform was not ready within 120 s; see " + log);
            }
            Thread.sleep(10);
        }
    }

    /**
     * The command run by {@code setsid}, in a session of its own, as a service is (systemd gives each its own
     * group). Linux's autogroup scheduling shares the CPU first between sessions: in the harness's session the
     * server shared one half of the machine with wrk while PostgreSQL, a service, had the other half, and wrk's
     * threads preempted the server's carriers. Page 1's p99 at 16 connections was 95 ms that way and 20 ms in a
     * session of its own. The child of a
     * ProcessBuilder leads no process group, so setsid runs the command in place: the pid stays the server's.
     */
    static List<String> ownSession(String... command) {
        List<String> full = new java.util.ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            full.add("/usr/bin/setsid");
        }
        full.addAll(List.of(command));
        return full;
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int probe(HttpClient http, URI uri) {
        try {
            return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    long pid() {
        return process.pid();
    }

    /** User plus system CPU time of the server process so far, in seconds. */
    double cpuSeconds() {
        return cpuSeconds(pid());
    }

    /** User plus system CPU time of process {@code pid} so far, in seconds. */
    static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) TICKS_PER_SECOND;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the server's CPU time", e);
        }
    }

    /** Resident set size of the server process now, in MB. */
    double rssMb() {
        return rssMb(pid());
    }

    /** Resident set size of process {@code pid} now, in MB. */
    static double rssMb(long pid) {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/" + pid + "/status"));
            for (String line : lines) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
                }
            }
            throw new IllegalStateException("no VmRSS in /proc/" + pid + "/status");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the server's RSS", e);
        }
    }

    /** SIGTERM, as an operator would stop it; the platform drains and exits 0. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}
