package dev.lnp.testkit.webhooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Starts {@link ChildPlatform} in a JVM of its own (the test's class path) and kills it with SIGKILL. */
final class ChildProcess implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final int port;

    private ChildProcess(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    static ChildProcess start(String name, Map<String, String> config) throws Exception {
        String java = ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-Xmx384m", "-cp", System.getProperty("java.class.path")));
        command.add("-Dlnp.management.port=0"); // several children at once: no fixed metrics port
        config.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add(ChildPlatform.class.getName());
        Path log = Path.of("target", "child-" + name + ".log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            String out = Files.readString(log);
            int ready = out.indexOf("READY ");
            if (ready >= 0) {
                int end = out.indexOf('\n', ready);
                if (end > 0) {
                    return new ChildProcess(process, log, Integer.parseInt(out.substring(ready + 6, end).trim()));
                }
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("child platform exited with " + process.exitValue() + ":\n" + out);
            }
            Thread.sleep(100);
        }
        process.destroyForcibly();
        throw new IllegalStateException("child platform not ready in time; see " + log);
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** SIGKILL: no shutdown hook, no flush, no goodbye. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
