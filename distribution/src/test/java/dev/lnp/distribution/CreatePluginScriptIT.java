package dev.lnp.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plugins/template/create-plugin}: a complete rename, and clear refusals. (DistributionIT builds one.) */
class CreatePluginScriptIT {

    private static final Path SCRIPT = Path.of(System.getProperty("lnp.project.root", ".."))
            .resolve("plugins/template/create-plugin").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void renamesTheIdClassAndPackageEverywhere() throws Exception {
        Path project = dir.resolve("ledger");
        Result result = run(project.toString(), "ledger", "com.acme.books.ledger");
        assertEquals(0, result.exit(), result.output());
        assertTrue(Files.isRegularFile(project.resolve("src/main/java/com/acme/books/ledger/LedgerPlugin.java")));
        assertTrue(Files.isRegularFile(project.resolve("src/test/java/com/acme/books/ledger/LedgerPluginTest.java")));
        assertTrue(Files.isRegularFile(project.resolve("src/main/resources/db/migration/ledger/V1__items.sql")));
        assertEquals("com.acme.books.ledger.LedgerPlugin", Files.readString(
                project.resolve("src/main/resources/META-INF/services/dev.lnp.api.PlatformPlugin")).strip());
        assertTrue(Files.readString(project.resolve("pom.xml")).contains("<lnp.plugin.id>ledger</lnp.plugin.id>"));
        List<String> leftovers = new ArrayList<>();
        try (Stream<Path> files = Files.walk(project)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String text = Files.readString(file);
                if (text.toLowerCase().contains("notes") || file.toString().toLowerCase().contains("notes")) {
                    leftovers.add(project.relativize(file).toString());
                }
            }
        }
        assertEquals(List.of(), leftovers, "files still naming the template's id");
    }

    @Test
    void refusesABadIdABadPackageAndAFolderInUse() throws Exception {
        Result badId = run(dir.resolve("a").toString(), "My-Plugin");
        assertEquals(2, badId.exit());
        assertTrue(badId.output().contains("plugin id 'My-Plugin': use lowercase letters and digits"), badId.output());

        Result badPackage = run(dir.resolve("b").toString(), "memo", "Org.Acme");
        assertEquals(2, badPackage.exit());
        assertTrue(badPackage.output().contains("java package 'Org.Acme'"), badPackage.output());

        Path used = Files.createDirectories(dir.resolve("used"));
        Files.writeString(used.resolve("keep.txt"), "mine");
        Result inUse = run(used.toString(), "memo");
        assertEquals(2, inUse.exit());
        assertTrue(inUse.output().contains("exists and is not empty"), inUse.output());
        assertEquals("mine", Files.readString(used.resolve("keep.txt")));

        Result usage = run();
        assertEquals(2, usage.exit());
        assertTrue(usage.output().startsWith("usage: "), usage.output());
    }

    private record Result(int exit, String output) {
    }

    private static Result run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "create-plugin did not finish");
        return new Result(p.exitValue(), output);
    }
}
