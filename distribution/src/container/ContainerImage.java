import com.google.cloud.tools.jib.api.Containerizer;
import com.google.cloud.tools.jib.api.Jib;
import com.google.cloud.tools.jib.api.JibContainerBuilder;
import com.google.cloud.tools.jib.api.TarImage;
import com.google.cloud.tools.jib.api.buildplan.AbsoluteUnixPath;
import com.google.cloud.tools.jib.api.buildplan.FileEntriesLayer;
import com.google.cloud.tools.jib.api.buildplan.FilePermissions;
import com.google.cloud.tools.jib.api.buildplan.ImageFormat;
import com.google.cloud.tools.jib.api.buildplan.Port;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Builds the OCI image tarball with jib-core (no Docker daemon): the Debian base made by build-base.sh, then the
 * release folder as layers ordered from the least to the most often changed, so an upgrade re-sends only the
 * layers whose files changed. Run by the `container` Maven profile as a single-file program:
 * java -cp <jib-core classpath> ContainerImage.java <release folder> <base tar> <output tar> <version> <cache dir>
 */
public class ContainerImage {
    static final AbsoluteUnixPath HOME = AbsoluteUnixPath.get("/opt/lnp");
    /** The launcher's folders of mutable state: made (owned by uid 10001) in the base, never shipped. */
    static final List<String> STATE = List.of("data", "cache");
    static final List<String> OWN_LAYERS = List.of("runtime", "lib", "plugins");

    public static void main(String[] args) throws Exception {
        Path release = Path.of(args[0]);
        Path base = Path.of(args[1]);
        Path out = Path.of(args[2]);
        String version = args[3];
        Path cache = Path.of(args[4]);

        JibContainerBuilder image = Jib.from(TarImage.at(base))
                .setFormat(ImageFormat.OCI)
                .setUser("10001:10001")
                .setWorkingDirectory(HOME)
                .setEntrypoint(HOME.resolve("bin/platform").toString(), "serve")
                .setEnvironment(Map.of(
                        "PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                        "LNP_HTTP_HOST", "0.0.0.0",
                        "LNP_MANAGEMENT_HOST", "0.0.0.0"))
                .addExposedPort(Port.tcp(8080))
                .addExposedPort(Port.tcp(9464))
                .addVolume(HOME.resolve("data"))
                .addLabel("org.opencontainers.image.title", "lnp")
                .addLabel("org.opencontainers.image.version", version);
        for (String folder : OWN_LAYERS) {
            image.addFileEntriesLayer(layer(folder, release.resolve(folder), HOME.resolve(folder)));
        }
        FileEntriesLayer.Builder rest = FileEntriesLayer.builder().setName("launcher-and-conf");
        try (var top = Files.list(release)) {
            for (Path entry : top.sorted().toList()) {
                String name = entry.getFileName().toString();
                if (OWN_LAYERS.contains(name) || STATE.contains(name)) {
                    continue;
                }
                rest.addEntryRecursive(entry, HOME.resolve(name), ContainerImage::permissionsOf,
                        ContainerImage::modifiedAt);
            }
        }
        image.addFileEntriesLayer(rest.build());

        image.containerize(Containerizer.to(TarImage.at(out).named("lnp:" + version))
                .setBaseImageLayersCache(cache.resolve("base"))
                .setApplicationLayersCache(cache.resolve("application"))
                .setToolName("lnp-container-image"));
    }

    static FileEntriesLayer layer(String name, Path source, AbsoluteUnixPath target) throws IOException {
        return FileEntriesLayer.builder().setName(name)
                .addEntryRecursive(source, target, ContainerImage::permissionsOf, ContainerImage::modifiedAt)
                .build();
    }

    /**
     * The release folder's own modification times, not Jib's fixed ones: the start-up cache (aot/platform.aot)
     * is used only with the very jars it was recorded with, which the JVM recognises by size and time.
     */
    static java.time.Instant modifiedAt(Path source, AbsoluteUnixPath target) {
        try {
            return Files.getLastModifiedTime(source).toInstant();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The release folder's own modes: the launcher and the runtime's executables stay executable. */
    static FilePermissions permissionsOf(Path source, AbsoluteUnixPath target) {
        try {
            return FilePermissions.fromPosixFilePermissions(Files.getPosixFilePermissions(source));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
