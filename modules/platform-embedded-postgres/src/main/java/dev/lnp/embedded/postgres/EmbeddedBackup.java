package dev.lnp.embedded.postgres;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Offline backup and restore of the embedded PostgreSQL's cluster ({@code <lnp.data.dir>/pgsql/data}) as a
 * tar.gz. The bundled PostgreSQL has no {@code pg_dump}, and a file copy is only consistent while the server is
 * stopped, so both refuse to run beside a live server. A restore never deletes the cluster it replaces: it is
 * moved aside to {@code data.before-restore-<time>}.
 */
public final class EmbeddedBackup {

    private static final String ROOT = "pgsql-data/";

    private final Path dataDir;
    private final Path cluster;
    private final Clock clock;

    public EmbeddedBackup(Path dataDir, Clock clock) {
        this.dataDir = dataDir.toAbsolutePath().normalize();
        this.cluster = this.dataDir.resolve("pgsql/data");
        this.clock = clock;
    }

    /** Writes the stopped cluster to {@code target}; returns how many files it holds. */
    public int backup(Path target) throws IOException {
        requireStopped();
        if (!Files.exists(cluster.resolve("PG_VERSION"))) {
            throw new IllegalStateException("no embedded database under " + cluster + " to back up");
        }
        if (Files.exists(target)) {
            throw new IllegalStateException(target + " exists; name a new file");
        }
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        int files = 0;
        try (OutputStream out = new GZIPOutputStream(new BufferedOutputStream(Files.newOutputStream(partial)));
                var tar = new TarArchiveOutputStream(out);
                Stream<Path> walk = Files.walk(cluster)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            for (Path path : walk.sorted().toList()) {
                String name = ROOT + cluster.relativize(path).toString().replace('\\', '/');
                if (Files.isDirectory(path)) {
                    tar.putArchiveEntry(new TarArchiveEntry(path.toFile(), name.endsWith("/") ? name : name + "/"));
                    tar.closeArchiveEntry();
                } else if (Files.isRegularFile(path) && !path.getFileName().toString().equals("postmaster.pid")) {
                    tar.putArchiveEntry(new TarArchiveEntry(path.toFile(), name));
                    Files.copy(path, tar);
                    tar.closeArchiveEntry();
                    files++;
                }
            }
            tar.finish();
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(partial);
            throw e;
        }
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        return files;
    }

    /**
     * Replaces the cluster with the one in {@code source}; an existing cluster is kept beside it, and only
     * replaced at all with {@code replace}. Returns where the previous cluster went, or null when there was none.
     */
    public Path restore(Path source, boolean replace) throws IOException {
        requireStopped();
        if (!Files.isRegularFile(source)) {
            throw new IllegalStateException("no backup file " + source);
        }
        boolean existing = Files.exists(cluster) && !isEmpty(cluster);
        if (existing && !replace) {
            throw new IllegalStateException(cluster + " holds a database; add --replace to restore over it (it is "
                    + "kept as data.before-restore-<time>)");
        }
        Path incoming = cluster.resolveSibling("data.restoring");
        deleteTree(incoming);
        Files.createDirectories(incoming);
        try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(source)));
                var tar = new TarArchiveInputStream(in)) {
            TarArchiveEntry entry;
            boolean versionFile = false;
            while ((entry = tar.getNextEntry()) != null) {
                if (!entry.getName().startsWith(ROOT)) {
                    throw new IllegalStateException(source + " is not a backup of this platform (entry "
                            + entry.getName() + ")");
                }
                Path path = incoming.resolve(entry.getName().substring(ROOT.length())).normalize();
                if (!path.startsWith(incoming)) {
                    throw new IllegalStateException(source + " has an entry outside the cluster: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(path);
                } else if (entry.isFile()) {
                    Files.createDirectories(path.getParent());
                    Files.copy(tar, path);
                    versionFile |= path.equals(incoming.resolve("PG_VERSION"));
                }
            }
            if (!versionFile) {
                throw new IllegalStateException(source + " holds no PostgreSQL cluster (no PG_VERSION)");
            }
        } catch (IOException | RuntimeException e) {
            deleteTree(incoming);
            throw e;
        }
        Files.setPosixFilePermissions(incoming, PosixFilePermissions.fromString("rwx------"));
        Path aside = null;
        if (Files.exists(cluster)) {
            aside = cluster.resolveSibling("data.before-restore-"
                    + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(clock.getZone()).format(clock.instant()));
            Files.move(cluster, aside, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(incoming, cluster, StandardCopyOption.ATOMIC_MOVE);
        return existing ? aside : null;
    }

    private void requireStopped() throws IOException {
        var running = EmbeddedPostgres.runningServer(dataDir);
        if (running.isPresent()) {
            throw new IllegalStateException("the embedded PostgreSQL under " + dataDir + " is running (pid "
                    + running.get() + "); stop the platform first (e.g. systemctl stop lnp)");
        }
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
