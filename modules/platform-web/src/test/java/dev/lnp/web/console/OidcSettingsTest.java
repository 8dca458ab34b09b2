package dev.lnp.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.internal.platform.ConfigValues;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code lnp.oidc.*} settings: nothing without an issuer, and every wrong setting refused by its name. */
class OidcSettingsTest {

    private static ConfigValues config(Map<String, String> values) {
        return new ConfigValues() {
            @Override
            public Optional<String> get(String key) {
                return Optional.ofNullable(values.get(key));
            }

            @Override
            public int getInt(String key, int defaultValue) {
                return defaultValue;
            }

            @Override
            public long getLong(String key, long defaultValue) {
                return defaultValue;
            }

            @Override
            public List<String> list(String key) {
                return List.of();
            }

            @Override
            public URI baseUrl() {
                return URI.create("http://localhost:8080");
            }
        };
    }

    private static Map<String, String> complete() {
        var values = new HashMap<String, String>();
        values.put("lnp.oidc.issuer", "https://id.example.com/realms/staff");
        values.put("lnp.oidc.client_id", "lnp");
        values.put("lnp.oidc.client_secret", "s3cret");
        return values;
    }

    private static String refusal(Map<String, String> values) {
        return assertThrows(IllegalArgumentException.class, () -> OidcSettings.from(config(values))).getMessage();
    }

    @Test
    void withoutAnIssuerThereIsNoProvider() {
        assertTrue(OidcSettings.from(config(Map.of())).isEmpty());
        assertTrue(OidcSettings.from(config(Map.of("lnp.oidc.issuer", "  "))).isEmpty());
    }

    @Test
    void aCompleteConfigurationHasItsDefaults() {
        var settings = OidcSettings.from(config(complete())).orElseThrow();
        assertEquals("https://id.example.com/realms/staff", settings.issuer().getValue());
        assertEquals("lnp", settings.clientId().getValue());
        assertEquals("s3cret", settings.clientSecret().getValue());
        assertEquals("single sign-on", settings.displayName());
        assertEquals("groups", settings.groupsClaim());
        assertEquals(List.of("openid", "email", "profile"), settings.scopes().toStringList());
        assertEquals("https://id.example.com", settings.issuerOrigin());
    }

    @Test
    void theIssuerMustBeHttpsExceptOnThisMachine() {
        var values = complete();
        values.put("lnp.oidc.issuer", "http://id.example.com/realms/staff");
        assertTrue(refusal(values).startsWith("lnp.oidc.issuer must be"), refusal(values));
        values.put("lnp.oidc.issuer", "not a url at all");
        assertTrue(refusal(values).contains("lnp.oidc.issuer"), refusal(values));
        values.put("lnp.oidc.issuer", "https://id.example.com/?tenant=x");
        assertTrue(refusal(values).contains("lnp.oidc.issuer"), refusal(values));
        values.put("lnp.oidc.issuer", "http://127.0.0.1:8081/realms/staff");
        assertEquals("http://127.0.0.1:8081", OidcSettings.from(config(values)).orElseThrow().issuerOrigin());
        values.put("lnp.oidc.issuer", "http://localhost:8081/realms/staff");
        assertTrue(OidcSettings.from(config(values)).isPresent());
    }

    @Test
    void theClientIdAndExactlyOneSecretAreRequired() {
        var values = complete();
        values.remove("lnp.oidc.client_id");
        assertTrue(refusal(values).startsWith("lnp.oidc.client_id is required"), refusal(values));
        values = complete();
        values.remove("lnp.oidc.client_secret");
        assertTrue(refusal(values).startsWith("lnp.oidc.client_secret (or lnp.oidc.client_secret_file"), refusal(values));
        values.put("lnp.oidc.client_secret", "a");
        values.put("lnp.oidc.client_secret_file", "/etc/lnp/oidc-secret");
        assertEquals("set lnp.oidc.client_secret or lnp.oidc.client_secret_file, not both", refusal(values));
    }

    @Test
    void theSecretMayComeFromAFile(@TempDir Path dir) throws Exception {
        var values = complete();
        values.remove("lnp.oidc.client_secret");
        Path file = dir.resolve("secret");
        Files.writeString(file, "from-file\n");
        values.put("lnp.oidc.client_secret_file", file.toString());
        assertEquals("from-file", OidcSettings.from(config(values)).orElseThrow().clientSecret().getValue());
        Files.writeString(file, "  \n");
        assertTrue(refusal(values).startsWith("lnp.oidc.client_secret_file names an empty file"), refusal(values));
        values.put("lnp.oidc.client_secret_file", dir.resolve("missing").toString());
        assertTrue(refusal(values).startsWith("lnp.oidc.client_secret_file cannot be read"), refusal(values));
    }

    @Test
    void scopesMustAskForTheEmailAddressAndTheLabelIsShort() {
        var values = complete();
        values.put("lnp.oidc.scopes", "openid profile");
        assertTrue(refusal(values).startsWith("lnp.oidc.scopes must include openid and email"), refusal(values));
        values.put("lnp.oidc.scopes", "openid,email,groups");
        assertEquals(List.of("openid", "email", "groups"),
                OidcSettings.from(config(values)).orElseThrow().scopes().toStringList());
        values.put("lnp.oidc.display_name", "x".repeat(61));
        assertTrue(refusal(values).startsWith("lnp.oidc.display_name"), refusal(values));
    }
}
