package dev.lnp.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Folders under /tmp for a test's files (an embedded PostgreSQL's data, a plugins folder), deleted when the test
 * JVM ends. Not JUnit's {@code @TempDir}: that one is 0700, and an embedded PostgreSQL started by root runs as
 * {@code nobody}, which must enter it. Deleted at exit rather than after each test because a test may leave a
 * server to its own close, and a folder is only safe to delete once every server in it has stopped.
 */
public final class ScratchDirs {

    private static final List<Path> CREATED = new ArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ScratchDirs::deleteAll, "scratch-dirs"));
    }

    private ScratchDirs() {
    }

    /** A new folder {@code /tmp/<prefix>…}, readable and enterable by every user. */
    public static Path create(String prefix) {
        try {
            Path dir = Files.createTempDirectory(Path.of("/tmp"), prefix,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
            synchronized (CREATED) {
                CREATED.add(dir);
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteAll() {
        synchronized (CREATED) {
            CREATED.forEach(ScratchDirs::delete);
        }
    }

    private static void delete(Path root) {
        try (Stream<Path> tree = Files.walk(root)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // A file still held (a server that did not stop) stays; the rest is gone.
            System.err.println("could not delete all of " + root + ": " + e);
        }
    }
}
