package dev.lnp.embedded.postgres;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import dev.lnp.database.EmbeddedDatabase;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * A PostgreSQL server run from the zonky binaries jar of this machine's processor ({@link PostgresBinaries}), for
 * when no database URL is configured.
 * Binaries and cluster live under {@code <dir>/pgsql}; the cluster survives restarts.
 * When the JVM runs as root, the server runs as an unprivileged user (postgres refuses root).
 * Nothing global is registered: the caller owns the shutdown hook.
 */
public final class EmbeddedPostgres implements EmbeddedDatabase, AutoCloseable {

    public static final String VERSION = "17.6.0";
    private static final String MARKER = ".unpacked";
    private static final String SUPERUSER = "postgres";
    private static final System.Logger LOG = System.getLogger(EmbeddedPostgres.class.getName());

    private final PostgresBinaries binaries;
    private final Path binDir;
    private final Path dataDir;
    private final Path logFile;
    private final List<String> runAs;   // setpriv prefix when root, else empty
    private final int port;
    private final boolean startedHere;
    private boolean stopped;

    /** Starts (or reuses) the server under {@code baseDir/pgsql}; as root the server runs as {@code nobody}. */
    public static EmbeddedPostgres start(Path baseDir) {
        return start(baseDir, "nobody");
    }

    /** As {@link #start(Path)}; {@code runAsUser} is only used when the JVM runs as root. */
    public static EmbeddedPostgres start(Path baseDir, String runAsUser) {
        try {
            return new EmbeddedPostgres(baseDir.toAbsolutePath().normalize(), runAsUser);
        } catch (IOException e) {
            throw new UncheckedIOException("embedded PostgreSQL failed to start under " + baseDir, e);
        }
    }

    private EmbeddedPostgres(Path baseDir, String runAsUser) throws IOException {
        binaries = PostgresBinaries.ofThisMachine(); // before anything is written: this processor may have none
        Path pgsql = baseDir.resolve("pgsql");
        Files.createDirectories(pgsql);
        binDir = pgsql.resolve("bin-" + VERSION);
        dataDir = pgsql.resolve("data");
        logFile = pgsql.resolve("postgres.log");
        String owner = null; // "uid:gid" of the server user when the JVM is root
        if ("0".equals(capture(List.of("id", "-u")))) {
            String uid = capture(List.of("id", "-u", runAsUser));
            String gid = capture(List.of("id", "-g", runAsUser));
            owner = uid + ":" + gid;
            runAs = List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--");
            requireTraversable(pgsql, runAsUser);
        } else {
            runAs = List.of();
        }
        unpackOnce(pgsql);
        if (!Files.exists(logFile)) {
            Files.createFile(logFile);
        }

        if (!Files.exists(dataDir.resolve("PG_VERSION"))) {
            initdb(pgsql, owner);
        }
        if (owner != null) {
            // Every start, so a restored backup or a changed run-as user does not stop the server.
            exec(List.of("chown", "-R", owner, dataDir.toString(), logFile.toString()), true);
        }
        Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwx------"));

        Integer running = runningPort();
        if (running != null) {
            LOG.log(Level.INFO, "Reusing running PostgreSQL on port {0} (data {1})", "" + running, dataDir);
            port = running;
            startedHere = false;
        } else {
            port = freePort();
            // TCP on loopback only; -k '' disables unix sockets (their path length limit bites in deep dirs).
            pgCtl("start", "-w", "-t", "60", "-l", logFile.toString(),
                    "-o", "-p " + port + " -h 127.0.0.1 -k ''");
            LOG.log(Level.INFO, "Started PostgreSQL {0} on port {1} (data {2})", VERSION, "" + port, dataDir);
            startedHere = true;
        }
    }

    /** JDBC URL of the {@code postgres} database. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    @Override
    public String username() {
        return SUPERUSER;
    }

    public int port() {
        return port;
    }

    @Override
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    @Override
    public void createDatabaseIfMissing(String name) {
        try (Connection c = DriverManager.getConnection(jdbcUrl(), SUPERUSER, "");
             PreparedStatement q = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            q.setString(1, name);
            if (q.executeQuery().next()) {
                return;
            }
            try (Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE \"" + name.replace("\"", "\"\"") + "\"");
            }
            LOG.log(Level.INFO, "Created database {0}", name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean startedHere() {
        return startedHere;
    }

    @Override
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        try {
            if (runningPort() == null) {
                stopped = true; // already stopped, e.g. by another instance that reused this server
                return;
            }
            pgCtl("stop", "-m", "fast", "-w");
            stopped = true;
            LOG.log(Level.INFO, "Stopped PostgreSQL (data {0})", dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts a server stopped by {@link #stop()} again, on the same port, so its clients can reconnect. */
    public synchronized void startAgain() {
        if (!stopped) {
            return;
        }
        try {
            pgCtl("start", "-w", "-t", "60", "-l", logFile.toString(), "-o", "-p " + port + " -h 127.0.0.1 -k ''");
            stopped = false;
            LOG.log(Level.INFO, "Started PostgreSQL again on port {0}", "" + port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        stop();
    }

    // ---- binaries ----

    private void unpackOnce(Path pgsql) throws IOException {
        if (Files.exists(binDir.resolve(MARKER))) {
            return;
        }
        if (Files.exists(binDir)) {
            // Cannot come from our own atomic move; someone left a partial copy. Start over.
            deleteTree(binDir);
        }
        LOG.log(Level.INFO, "Unpacking PostgreSQL {0} binaries into {1}", VERSION, binDir);
        Path tmp = Files.createTempDirectory(pgsql, "unpack-");
        try {
            untar(tmp);
            Files.writeString(tmp.resolve(MARKER), VERSION + "\n");
            // createTempDirectory makes it 0700; the server user must be able to use the binaries.
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
            try {
                Files.move(tmp, binDir, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
                if (!Files.exists(binDir.resolve(MARKER))) {
                    throw e;
                }
                // Another process won the race; its copy is complete.
            }
        } finally {
            if (Files.exists(tmp)) {
                deleteTree(tmp);
            }
        }
    }

    private void untar(Path target) throws IOException {
        InputStream archive = binaries.open();
        Map<Path, Integer> dirModes = new HashMap<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(
                new XZCompressorInputStream(new BufferedInputStream(archive, 1 << 16)))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                Path p = target.resolve(e.getName()).normalize();
                if (!p.startsWith(target)) {
                    throw new IOException("archive entry escapes target: " + e.getName());
                }
                Files.createDirectories(p.getParent());
                if (e.isDirectory()) {
                    Files.createDirectories(p);
                    dirModes.put(p, e.getMode());
                } else if (e.isSymbolicLink()) {
                    Files.createSymbolicLink(p, Path.of(e.getLinkName()));
                } else if (e.isLink()) {
                    Files.createLink(p, target.resolve(e.getLinkName()).normalize());
                } else {
                    Files.copy(tar, p);
                    Files.setPosixFilePermissions(p, permissions(e.getMode()));
                }
            }
        }
        // Directory modes last, so a read-only directory cannot block writing its children.
        for (Map.Entry<Path, Integer> d : dirModes.entrySet()) {
            Files.setPosixFilePermissions(d.getKey(), permissions(d.getValue()));
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (int i = 0; i < 9; i++) {
            if ((mode & (0400 >> i)) != 0) {
                set.add(bits[i]);
            }
        }
        return set;
    }

    // ---- cluster ----

    private void initdb(Path pgsql, String owner) throws IOException {
        if (Files.exists(dataDir)) {
            try (Stream<Path> s = Files.list(dataDir)) {
                if (s.findAny().isPresent()) {
                    throw new IllegalStateException(dataDir + " is not empty but holds no cluster (no PG_VERSION);"
                            + " refusing to touch it. Move it away to get a fresh database.");
                }
            }
            Files.delete(dataDir);
        }
        // initdb into a side directory, then rename: a crash mid-initdb never looks like a cluster.
        Path tmp = pgsql.resolve("data.initdb");
        if (Files.exists(tmp)) {
            deleteTree(tmp);
        }
        Files.createDirectory(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        if (owner != null) {
            exec(List.of("chown", owner, tmp.toString()), true);
        }
        LOG.log(Level.INFO, "Initialising PostgreSQL cluster in {0}", dataDir);
        List<String> cmd = new ArrayList<>(runAs);
        cmd.addAll(List.of(binDir.resolve("bin/initdb").toString(), "-A", "trust", "-U", SUPERUSER,
                "-E", "UTF8", "--no-locale", "-D", tmp.toString()));
        exec(cmd, true);
        Files.move(tmp, dataDir, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Port of a postmaster still serving this data dir (e.g. after the JVM was kill -9'd), else null. */
    private Integer runningPort() throws IOException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return null;
        }
        List<String> cmd = new ArrayList<>(runAs);
        cmd.addAll(List.of(binDir.resolve("bin/pg_ctl").toString(), "status", "-D", dataDir.toString()));
        if (exec(cmd, false) != 0) {
            return null; // stale pid file: postgres itself discards it on start
        }
        List<String> lines = Files.readAllLines(pidFile);
        String pid = lines.get(0).trim();
        // pg_ctl status only does kill(pid, 0): true for a zombie (a kill -9'd postmaster whose new parent
        // does not reap, e.g. a JVM running as container PID 1) and for a reused PID. Postgres' own start-up
        // check would trip over the same pid file, so remove it.
        if (!isLivePostgres(pid)) {
            LOG.log(Level.WARNING, "Removing stale {0}: PID {1} is not a live postgres", pidFile, pid);
            Files.delete(pidFile);
            return null;
        }
        return lines.size() > 3 ? Integer.valueOf(lines.get(3).trim()) : null;
    }

    /**
     * The PID of a live postgres serving the embedded cluster under {@code baseDir} (as {@code lnp.data.dir}), if
     * any: operator commands that copy the cluster's files must not run beside it.
     */
    public static Optional<String> runningServer(Path baseDir) throws IOException {
        Path pidFile = baseDir.resolve("pgsql/data/postmaster.pid");
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        List<String> lines = Files.readAllLines(pidFile);
        String pid = lines.isEmpty() ? "" : lines.get(0).trim();
        return !pid.isEmpty() && isLivePostgres(pid) ? Optional.of(pid) : Optional.empty();
    }

    private static boolean isLivePostgres(String pid) throws IOException {
        Path stat = Path.of("/proc", pid, "stat");
        if (!Files.exists(stat)) {
            return !Files.isDirectory(Path.of("/proc/self")); // no procfs: trust pg_ctl
        }
        String s = Files.readString(stat); // "pid (comm) state ..."
        int close = s.lastIndexOf(')');
        String comm = s.substring(s.indexOf('(') + 1, close);
        char state = s.charAt(close + 2);
        return comm.equals("postgres") && state != 'Z' && state != 'X';
    }

    private void pgCtl(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(runAs);
        cmd.add(binDir.resolve("bin/pg_ctl").toString());
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-D", dataDir.toString()));
        exec(cmd, true);
    }

    // ---- processes ----

    /** Runs a child with its output appended to the server log; returns the exit code. */
    private int exec(List<String> cmd, boolean failOnError) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(logFile.getParent().toFile()) // the server user may not be able to enter the JVM's cwd
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("PG")); // PGDATA, PGPORT, ... must not leak in
        env.put("HOME", dataDir.toString());
        env.put("LC_ALL", "C");
        int rc;
        try {
            rc = pb.start().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + cmd, e);
        }
        if (rc != 0 && failOnError) {
            throw new IllegalStateException("`" + String.join(" ", cmd) + "` exited with " + rc
                    + "; last lines of " + logFile + ":\n" + logTail(30));
        }
        return rc;
    }

    private static String capture(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (p.waitFor() != 0) {
                throw new IllegalStateException("`" + String.join(" ", cmd) + "` failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + cmd, e);
        }
        return out;
    }

    /** Fails with the first directory on the way to {@code dir} that {@code user} cannot enter. */
    private void requireTraversable(Path dir, String user) throws IOException {
        List<String> cmd = new ArrayList<>(runAs);
        cmd.addAll(List.of("sh", "-c", "for d; do [ -x \"$d\" ] || { echo \"$d\"; exit 1; }; done", "sh"));
        List<String> dirs = new ArrayList<>();
        for (Path p = dir; p != null; p = p.getParent()) {
            dirs.add(0, p.toString()); // outermost first, so the outermost culprit is named
        }
        cmd.addAll(dirs);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (p.waitFor() != 0) {
                throw new IllegalStateException("PostgreSQL runs as '" + user + "' (the JVM is root), but '" + user
                        + "' cannot enter " + out + " — make it traversable (chmod o+x) or choose another directory");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private String logTail(int n) {
        // Read only the end: the log grows for the lifetime of the cluster.
        try (SeekableByteChannel ch = Files.newByteChannel(logFile)) {
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(ch.size(), 16 * 1024));
            ch.position(ch.size() - buf.capacity());
            while (buf.hasRemaining() && ch.read(buf) > 0) {
                continue;
            }
            List<String> lines = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
