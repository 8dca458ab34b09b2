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

    /** The file's rules, read without Helidon's configuration (operations.md, "Configuration"). */
    @Test
    void yamlValuesAreReadAsTheOperationsGuideSays(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("platform.yaml");
        Files.writeString(yaml, """
                lnp:
                  keys:
                    legacy_until: 2027-06-30T00:00:00Z
                  mail:
                    dispatch: no
                    print_local: on
                  http:
                    host: ~
                    port: 0x1F90
                  base:
                    url: https://${lnp.site}:${lnp.http.port}/${lnp.unknown}
                  site: crm.example.com
                  plugins:
                    enabled:
                      - crm
                      - " mcp "
                """);
        PlatformConfig config = PlatformConfig.load(yaml, Map.of(), Map.of());
        assertEquals("2027-06-30T00:00:00Z", config.get("lnp.keys.legacy_until").orElseThrow(),
                "a timestamp as written, not a date's toString");
        assertEquals("false", config.get("lnp.mail.dispatch").orElseThrow(), "YAML's no is false");
        assertEquals("true", config.get("lnp.mail.print_local").orElseThrow());
        assertEquals("", config.get("lnp.http.host").orElseThrow(), "null is the empty string");
        assertEquals(8080, config.httpPort(), "a YAML integer in any of its notations");
        assertEquals("https://crm.example.com:8080/${lnp.unknown}", config.get("lnp.base.url").orElseThrow(),
                "references resolved; an unknown one stays as written");
        assertEquals(List.of("crm", "mcp"), config.pluginsEnabled());
        assertEquals(List.of(), config.pluginsDisabled());
    }

    @Test
    void aHigherSourceReplacesTheWholeSettingBelowIt(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("platform.yaml");
        Files.writeString(yaml, """
                lnp:
                  plugins:
                    enabled: [crm, projects, issues]
                """);
        PlatformConfig config = PlatformConfig.load(yaml, Map.of("LNP_PLUGINS_ENABLED", "mcp"),
                Map.of("lnp.http.port", "9300"));
        assertEquals(List.of("mcp"), config.pluginsEnabled(), "the file's list is replaced, not merged");
        assertEquals(9300, config.httpPort());
    }

    @Test
    void aSettingThatIsNotANumberIsRefusedNamingIt() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> PlatformConfig.load(null, Map.of("LNP_HTTP_PORT", "eighty"), Map.of()).httpPort());
        assertEquals("lnp.http.port must be a whole number, not \"eighty\"", refused.getMessage());
        assertThrows(IllegalStateException.class,
                () -> PlatformConfig.load(null, Map.of(), Map.of("lnp.http.max_body_bytes", "1e6")).maxBodyBytes());
        IllegalStateException tooLarge = assertThrows(IllegalStateException.class,
                () -> PlatformConfig.load(null, Map.of("LNP_HTTP_PORT", "3000000000"), Map.of()).httpPort());
        assertEquals("lnp.http.port must be a whole number from -2147483648 to 2147483647, not 3000000000",
                tooLarge.getMessage());
    }

    @Test
    void aFileWhoseTopLevelIsNotAMappingIsRefusedNamingTheFile(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("platform.yaml");
        Files.writeString(yaml, "- lnp\n- http\n");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> PlatformConfig.load(yaml, Map.of(), Map.of()));
        assertEquals("the configuration file " + yaml + " is not valid YAML: its top level must be a mapping of"
                + " settings (such as lnp:), not a list", refused.getMessage());
        Files.writeString(yaml, "");
        assertEquals(8080, PlatformConfig.load(yaml, Map.of(), Map.of()).httpPort(), "an empty file sets nothing");
    }

    @Test
    void referencesInALoopAreRefused() {
        PlatformConfig config = PlatformConfig.load(null, Map.of(), Map.of("lnp.a", "${lnp.b}", "lnp.b", "x${lnp.a}"));
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> config.get("lnp.a"));
        assertTrue(refused.getMessage().contains("refer to") || refused.getMessage().contains("refers to"),
                refused.getMessage());
    }
}
