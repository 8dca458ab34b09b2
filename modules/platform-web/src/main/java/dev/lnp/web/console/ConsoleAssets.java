package dev.lnp.web.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * The console's bundled CSS and scripts: its own, and htmx (copied from its webjar at build time) for the
 * application's pages. Each URL carries a hash of the file's content, so a response can be
 * cached for a year: a changed file gets a new URL. Nothing is fetched from elsewhere (no CDN).
 */
public final class ConsoleAssets {

    public record Asset(String name, String contentType, byte[] bytes, String version) {
        public String url() {
            return "/console/assets/" + version + "/" + name;
        }
    }

    private final Map<String, Asset> byName;

    private ConsoleAssets(Map<String, Asset> byName) {
        this.byName = byName;
    }

    public static ConsoleAssets load() {
        return new ConsoleAssets(Map.of(
                "console.css", read("console.css", "text/css; charset=utf-8"),
                "console.js", read("console.js", "text/javascript; charset=utf-8"),
                "htmx.min.js", read("htmx.min.js", "text/javascript; charset=utf-8")));
    }

    public String cssUrl() {
        return byName.get("console.css").url();
    }

    public String jsUrl() {
        return byName.get("console.js").url();
    }

    public String htmxUrl() {
        return byName.get("htmx.min.js").url();
    }

    /** The asset at this version, or empty when the name is unknown or the version is not the current one. */
    public Optional<Asset> find(String version, String name) {
        Asset asset = byName.get(name);
        return asset != null && asset.version().equals(version) ? Optional.of(asset) : Optional.empty();
    }

    private static Asset read(String name, String contentType) {
        try (InputStream in = ConsoleAssets.class.getResourceAsStream("assets/" + name)) {
            if (in == null) {
                throw new IllegalStateException("console asset missing from the build: " + name);
            }
            byte[] bytes = in.readAllBytes();
            String version = HexFormat.of().formatHex(Secrets.hash(new String(bytes,
                    java.nio.charset.StandardCharsets.ISO_8859_1))).substring(0, 12);
            return new Asset(name, contentType, bytes, version);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
