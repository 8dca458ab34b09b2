package dev.lnp.testkit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.Json;
import dev.lnp.cli.Main;
import dev.lnp.embedded.postgres.EmbeddedPostgres;
import dev.lnp.testkit.ScratchDirs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** {@code platform backup} / {@code restore} of the embedded database, as an operator runs them. */
class EmbeddedBackupCliTest {

    private record Run(int exit, String out, String err) {
    }

    @Test
    void aBackupTakenWhileStoppedRestoresTheDataAndKeepsWhatItReplaced() throws Exception {
        Path dir = ScratchDirs.create("lnp-backup");
        Path backup = dir.resolve("lnp.tar.gz");
        assertEquals(0, run(dir, "workspace", "create", "--name", "Kept", "--owner-email", "o@kept.test").exit());

        Run written = run(dir, "backup", "--to", backup.toString());
        assertEquals(0, written.exit(), written.err());
        assertTrue(written.out().startsWith("Backed up the embedded database ("), written.out());

        assertEquals(0, run(dir, "workspace", "create", "--name", "Later", "--owner-email", "o@later.test").exit());
        Run refused = run(dir, "restore", "--from", backup.toString());
        assertEquals(1, refused.exit());
        assertTrue(refused.err().startsWith("error: ") && refused.err().contains("--replace"), refused.err());

        Run restored = run(dir, "restore", "--from", backup.toString(), "--replace");
        assertEquals(0, restored.exit(), restored.err());
        assertTrue(restored.out().contains("the previous one is in "), restored.out());
        try (Stream<Path> kept = Files.list(dir.resolve("pgsql"))) {
            assertTrue(kept.anyMatch(p -> p.getFileName().toString().startsWith("data.before-restore-")),
                    "the replaced database is kept");
        }
        Run listed = run(dir, "workspace", "list", "--json");
        assertEquals(0, listed.exit(), listed.err());
        var names = Json.parse(listed.out()).findValuesAsText("name");
        assertEquals(java.util.List.of("Kept"), names, "the data as it was at the backup");

        EmbeddedPostgres server = EmbeddedPostgres.start(dir);
        try {
            Run running = run(dir, "backup", "--to", dir.resolve("other.tar.gz").toString());
            assertEquals(1, running.exit());
            assertTrue(running.err().contains("is running (pid ") && running.err().contains("stop the platform first"),
                    running.err());
            assertTrue(!Files.exists(dir.resolve("other.tar.gz")));
        } finally {
            server.stop();
        }

        Path evil = dir.resolve("evil.tar.gz");
        try (var gzip = new GZIPOutputStream(Files.newOutputStream(evil))) {
            gzip.write(tarWithOneFile("pgsql-data/../../escaped", "x"));
        }
        Run escaped = run(dir, "restore", "--from", evil.toString(), "--replace");
        assertEquals(1, escaped.exit());
        assertTrue(escaped.err().contains("outside the cluster"), escaped.err());
        assertTrue(!Files.exists(dir.resolve("escaped")) && Files.exists(dir.resolve("pgsql/data/PG_VERSION")),
                "a refused restore leaves the database as it was");

        System.setProperty("lnp.database.url", "jdbc:postgresql://db.internal/lnp");
        try {
            Run external = run(dir, "backup", "--to", dir.resolve("x.tar.gz").toString());
            assertEquals(1, external.exit());
            assertTrue(external.err().contains("external PostgreSQL: back it up with pg_dump"), external.err());
        } finally {
            System.clearProperty("lnp.database.url");
        }
    }

    /** A ustar archive of one regular file, written by hand: tar tools refuse to write such names. */
    private static byte[] tarWithOneFile(String name, String content) {
        byte[] header = new byte[512];
        byte[] body = content.getBytes(StandardCharsets.US_ASCII);
        put(header, 0, name);
        put(header, 100, "0000644");
        put(header, 108, "0000000");
        put(header, 116, "0000000");
        put(header, 124, String.format("%011o", body.length));
        put(header, 136, String.format("%011o", 0));
        header[156] = '0';
        put(header, 257, "ustar");
        put(header, 263, "00");
        java.util.Arrays.fill(header, 148, 156, (byte) ' ');
        int sum = 0;
        for (byte b : header) {
            sum += b & 0xff;
        }
        put(header, 148, String.format("%06o", sum));
        header[154] = 0;
        byte[] archive = new byte[512 + 512 + 1024];
        System.arraycopy(header, 0, archive, 0, 512);
        System.arraycopy(body, 0, archive, 512, body.length);
        return archive;
    }

    private static void put(byte[] header, int offset, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, header, offset, bytes.length);
    }

    private static synchronized Run run(Path dataDir, String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        var outBytes = new ByteArrayOutputStream();
        var errBytes = new ByteArrayOutputStream();
        System.setProperty("lnp.data.dir", dataDir.toString());
        System.setProperty("lnp.plugins.dir", "target/no-plugins");
        try {
            System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            int exit = Main.run(args);
            return new Run(exit, outBytes.toString(StandardCharsets.UTF_8).strip(), errBytes.toString(StandardCharsets.UTF_8).strip());
        } finally {
            System.setOut(out);
            System.setErr(err);
            System.clearProperty("lnp.data.dir");
            System.clearProperty("lnp.plugins.dir");
        }
    }
}
