package dev.lnp.testkit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.core.config.PlatformConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlatformConfigTest {

    @Test
    void defaultsApplyWithoutAFile() {
        PlatformConfig config = PlatformConfig.load(null, Map.of(), Map.of());
        assertEquals(8080, config.httpPort());
        assertTrue(config.databaseUrl().isEmpty(), "no URL means the embedded database");
        assertEquals(Path.of("./data").toAbsolutePath().normalize(), config.dataDir());
        assertEquals(List.of(), config.pluginsEnabled());
    }

    @Test
    void aBrokenYamlFileIsRefusedNamingTheFile(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("platform.yaml");
        Files.writeString(yaml, "lnp:\n  http:\n    port: [9000\n");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> PlatformConfig.load(yaml, Map.of(), Map.of()));
        assertTrue(refused.getMessage().startsWith("the configuration file " + yaml + " is not valid YAML: "),
                refused.getMessage());
        assertTrue(refused.getMessage().length() > ("the configuration file " + yaml + " is not valid YAML: ").length(),
                "says what is wrong: " + refused.getMessage());
    }

    @Test
    void aConfigurationFileThatIsNotUtf8IsRefusedNamingTheFile(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("platform.yaml");
        Files.write(yaml, new byte[] {'l', 'n', 'p', ':', ' ', (byte) 0xff, (byte) 0xfe, '\n'});
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> PlatformConfig.load(yaml, Map.of(), Map.of()));
        assertTrue(refused.getMessage().startsWith("cannot read the configuration file " + yaml), refused.getMessage());
    }

    @Test
    void aPoolTooSmallForMigrationsIsRefusedNamingTheSetting() {
        assertEquals(2, PlatformConfig.load(null, Map.of("LNP_DATABASE_POOL_SIZE", "2"), Map.of()).databasePoolSize());
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> PlatformConfig.load(null, Map.of("LNP_DATABASE_POOL_SIZE", "1"), Map.of()).databasePoolSize());
        assertEquals("lnp.database.pool.size is 1: it must be at least 2 (a start's migrations hold two connections"
                + " at once)", refused.getMessage());
    }

    @Test
    void environmentVariablesOverrideTheYamlFile(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("platform.yaml");
        Files.writeString(yaml, """
                lnp:
                  http:
                    port: 9000
                    max_body_bytes: 4096
                  data:
                    dir: /var/lib/lnp
                  base:
                    url: https://crm.example.com
                  plugins:
                    enabled: [crm, projects]
                    disabled: [hello]
                """);
        PlatformConfig fileOnly = PlatformConfig.load(yaml, Map.of(), Map.of());
        assertEquals(9000, fileOnly.httpPort());
        assertEquals(4096, fileOnly.maxBodyBytes());
        assertEquals(List.of("crm", "projects"), fileOnly.pluginsEnabled());
        assertEquals(List.of("hello"), fileOnly.pluginsDisabled());
        assertEquals("https://crm.example.com", fileOnly.baseUrl().toString());

        PlatformConfig overridden = PlatformConfig.load(yaml, Map.of(
                "LNP_HTTP_PORT", "9191",
                "LNP_DATABASE_URL", "jdbc:postgresql://db:5432/lnp",
                "LNP_DATA_DIR", "/srv/lnp",
                "LNP_BASE_URL", "https://lnp.example.org",
                "LNP_PLUGINS_ENABLED", "crm, mcp",
                "LNP_HTTP_MAX__BODY__BYTES", "8192",
                "PATH", "/usr/bin"), Map.of());
        assertEquals(9191, overridden.httpPort());
        assertEquals("jdbc:postgresql://db:5432/lnp", overridden.databaseUrl().orElseThrow());
        assertEquals(Path.of("/srv/lnp"), overridden.dataDir());
        assertEquals("https://lnp.example.org", overridden.baseUrl().toString());
        assertEquals(List.of("crm", "mcp"), overridden.pluginsEnabled());
        assertEquals(8192, overridden.maxBodyBytes());
    }
}
