package dev.lnp.database.migrations;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32;
import java.util.zip.ZipFile;
import org.flywaydb.core.internal.license.VersionPrinter;

/**
 * A digest of what this binary carries for one owner's migrations: Flyway's version, the configuration that
 * {@link Migrations} gives it, and every file under the owner's script location (name, size, CRC-32 of its
 * bytes). Any change Flyway could see in the scripts changes it. A jar's files are read from its central
 * directory, which holds each entry's CRC-32 (nothing is inflated); a directory's files are read whole (tests,
 * development). A location in anything else, or one the class loader does not find (where Flyway searches
 * further), gives no digest: that owner is always checked by Flyway.
 */
final class CarriedMigrations {

    private CarriedMigrations() {
    }

    /** @param configuration what else changes Flyway's view of the scripts (table, placeholders) */
    static Optional<String> digest(Migrations.Owner owner, String configuration) {
        String location = "db/migration/" + owner.id();
        List<String> lines = new ArrayList<>();
        lines.add("flyway " + VersionPrinter.getVersion());
        lines.add("configuration " + configuration);
        try {
            List<URL> urls = Collections.list(owner.classLoader().getResources(location));
            if (urls.isEmpty()) {
                // Flyway then looks through every jar of a URLClassLoader instead (a jar without directory entries).
                return Optional.empty();
            }
            for (URL url : urls) {
                List<String> files = files(url, location);
                if (files == null) {
                    return Optional.empty();
                }
                lines.addAll(files);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the migration scripts of " + owner.id(), e);
        }
        Collections.sort(lines.subList(2, lines.size()));
        return Optional.of(sha256(String.join("\n", lines)));
    }

    /** One line per file under the location, or null when the location's kind is not one read here (a jar inside
     * a jar, anything but a file). */
    private static List<String> files(URL url, String location) throws IOException {
        String spec = url.toString();
        if (spec.startsWith("file:")) {
            return directoryFiles(Path.of(URI.create(spec)));
        }
        int separator = spec.indexOf("!/");
        if (spec.startsWith("jar:file:") && separator == spec.lastIndexOf("!/")) {
            return jarFiles(Path.of(URI.create(spec.substring("jar:".length(), separator))), location + "/");
        }
        return null;
    }

    private static List<String> jarFiles(Path jar, String prefix) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.stream().filter(e -> !e.isDirectory() && e.getName().startsWith(prefix))
                    .map(e -> e.getName() + " " + e.getSize() + " " + Long.toHexString(e.getCrc()))
                    .toList();
        }
    }

    private static List<String> directoryFiles(Path directory) throws IOException {
        try (var walk = Files.walk(directory)) {
            List<Path> files = walk.filter(Files::isRegularFile).toList();
            List<String> lines = new ArrayList<>();
            for (Path file : files) {
                byte[] bytes = Files.readAllBytes(file);
                CRC32 crc = new CRC32();
                crc.update(bytes);
                lines.add(directory.relativize(file) + " " + bytes.length + " " + Long.toHexString(crc.getValue()));
            }
            return lines;
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
