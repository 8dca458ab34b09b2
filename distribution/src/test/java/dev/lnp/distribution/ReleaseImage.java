package dev.lnp.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The release as an operator has it: the release tar.gz unpacked into an empty folder, reached through a symbolic
 * link to {@code bin/platform} from another folder, with no JDK on the PATH (only the few system tools the launcher
 * and the embedded database use), on its own runtime image and module path, and with no database configured (so
 * the embedded PostgreSQL starts in a fresh data folder; as root it runs unprivileged). Shared by the tests that
 * run the image ({@link DistributionIT}, {@link ReleaseJourneysIT}, {@link OidcSignInIT}).
 */
final class ReleaseImage implements AutoCloseable {

    /** The system tools bin/platform and the embedded database call; the PATH of every process holds only these. */
    private static final List<String> SYSTEM_TOOLS = List.of("sh", "readlink", "dirname", "ls", "cksum", "cut",
            "mkdir", "rm", "id", "setpriv", "chown", "tar", "gzip");

    final Path work;
    final Path home;
    final Path launcher;
    final Path dataDir;
    final Path callerDir;
    final Path toolsOnly;

    private ReleaseImage(Path work, Path home, Path launcher, Path dataDir, Path callerDir, Path toolsOnly) {
        this.work = work;
        this.home = home;
        this.launcher = launcher;
        this.dataDir = dataDir;
        this.callerDir = callerDir;
        this.toolsOnly = toolsOnly;
    }

    /** Unpacks the archive the package phase built (system property {@code lnp.dist.tarball}). */
    static ReleaseImage unpack(String name) throws Exception {
        Path tarball = Path.of(System.getProperty("lnp.dist.tarball", "target/lnp-0.1.0-SNAPSHOT-linux-x64.tar.gz"));
        assertTrue(Files.isRegularFile(tarball), "no release archive at " + tarball + "; run the package phase first");
        // Every folder above the data folder must be enterable by the unprivileged database user.
        Path work = Files.createTempDirectory("lnp-" + name + "-");
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path toolsOnly = systemToolsWithoutJava(Files.createDirectories(work.resolve("path")));
        Path opt = Files.createDirectories(work.resolve("opt"));
        Path home;
        runIn(List.of("tar", "-xzf", tarball.toAbsolutePath().toString()), opt, Duration.ofMinutes(2), Map.of(),
                toolsOnly);
        try (Stream<Path> top = Files.list(opt)) {
            List<Path> folders = top.toList();
            assertEquals(1, folders.size(), "the archive holds one folder: " + folders);
            home = folders.get(0);
        }
        Path callerDir = Files.createDirectories(work.resolve("elsewhere"));
        Path linkDir = Files.createDirectories(work.resolve("usr-local-bin"));
        Path launcher = Files.createSymbolicLink(linkDir.resolve("platform"), home.resolve("bin/platform"));
        for (Path dir = work; dir != null; dir = dir.getParent()) {
            assertTrue(Files.getPosixFilePermissions(dir).contains(PosixFilePermission.OTHERS_EXECUTE),
                    dir + " must be enterable by others for the embedded database user");
        }
        return new ReleaseImage(work, home, launcher, work.resolve("state").resolve("data"), callerDir, toolsOnly);
    }

    /** Starts {@code bin/platform serve} on free ports; {@code extraEnv} adds or overrides settings. */
    ImageServer start(String name, Map<String, String> extraEnv) throws IOException {
        return start(name, ImageServer.freePort(), extraEnv);
    }

    /** Starts {@code bin/platform serve} on {@code port} (a restart keeps its public URL). */
    ImageServer start(String name, int port, Map<String, String> extraEnv) throws IOException {
        return ImageServer.start(this, name, port, extraEnv);
    }

    /** An operator command ({@code bin/platform ARGS}) on this installation's data; its standard output. */
    String operator(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(launcher.toString());
        command.addAll(List.of(args));
        return run(command, callerDir, Duration.ofMinutes(1), Map.of("LNP_DATA_DIR", dataDir.toString()));
    }

    /** Runs a command to its end without a JDK and without the build's LNP_ settings; its standard output. */
    String run(List<String> command, Path dir, Duration timeout, Map<String, String> extraEnv) throws Exception {
        return runIn(command, dir, timeout, extraEnv, toolsOnly);
    }

    /** Removes what the build's environment would add: every LNP_ setting and any JDK. */
    void isolate(Map<String, String> env) {
        isolate(env, toolsOnly);
    }

    private static void isolate(Map<String, String> env, Path toolsOnly) {
        env.keySet().removeIf(k -> k.startsWith("LNP_"));
        env.remove("JAVA_HOME");
        env.remove("JDK_HOME");
        env.put("PATH", toolsOnly.toString());
    }

    @Override
    public void close() throws IOException {
        // The servers' logs outlive the installation, for a failure's reader (target/image-logs/).
        Path logs = Files.createDirectories(Path.of("target", "image-logs", work.getFileName().toString()));
        try (Stream<Path> files = Files.list(work)) {
            for (Path log : files.filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
                Files.copy(log, logs.resolve(log.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        if (!Boolean.getBoolean("lnp.dist.keep")) {
            deleteTree(work);
        }
    }

    private static String runIn(List<String> command, Path dir, Duration timeout, Map<String, String> extraEnv,
            Path toolsOnly) throws Exception {
        Path out = Files.createTempFile("lnp-dist-it-", ".out");
        Path err = Files.createTempFile("lnp-dist-it-", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            isolate(pb.environment(), toolsOnly);
            pb.environment().putAll(extraEnv);
            Process p = pb.start();
            if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                fail(command + " did not finish within " + timeout + ":\n" + Files.readString(err));
            }
            String stdout = Files.readString(out);
            assertEquals(0, p.exitValue(), command + " failed:\n" + stdout + Files.readString(err));
            return stdout;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static Path systemToolsWithoutJava(Path dir) throws IOException {
        for (String tool : SYSTEM_TOOLS) {
            Path found = Stream.of("/usr/bin", "/bin", "/usr/sbin", "/sbin").map(d -> Path.of(d, tool))
                    .filter(Files::isExecutable).findFirst()
                    .orElseThrow(() -> new AssertionError("running the release needs " + tool + " on this machine"));
            Files.createSymbolicLink(dir.resolve(tool), found);
        }
        return dir;
    }

    static void deleteTree(Path root) throws IOException {
        if (root == null || !Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) {
                    throw new UncheckedIOException(e);
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
