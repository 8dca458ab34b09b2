package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lnp.core.auth.Connections;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** wks_ keys work while no end of the compatibility period is set and until it, and get 401 after it. */
class LegacyKeysTest {

    @Test
    void legacyKeysWorkBeforeTheEndDateAndAre401After() {
        try (TestPlatform before = TestPlatform.start("legacy", List.of("probe"), null,
                Map.of("lnp.keys.legacy_until", "2999-01-01T00:00:00Z"))) {
            UUID ws = before.createWorkspace("legacy");
            var connection = before.connections().create(new Connections.NewConnection(ws, "old client",
                    List.of("probe.read"), null, null, null));
            String legacy = "wks_" + "k".repeat(16) + "LegacyKey_123";
            before.connections().importLegacy(connection.connectionId(), legacy);
            assertEquals(200, before.get("/api/v1/probe/items", legacy).status());
            assertThrows(IllegalArgumentException.class,
                    () -> before.connections().importLegacy(connection.connectionId(), legacy), "imported twice");
            assertThrows(IllegalArgumentException.class,
                    () -> before.connections().importLegacy(connection.connectionId(), "lnp_notlegacy0000000000"));

            try (TestPlatform after = TestPlatform.startOn(before, List.of("probe"),
                    Map.of("lnp.keys.legacy_until", "2020-01-01T00:00:00Z"))) {
                var response = after.get("/api/v1/probe/items", legacy);
                assertEquals(401, response.status());
                assertEquals("legacy_key_retired", response.json().path("code").asText());
                assertEquals(200, after.get("/api/v1/probe/items", connection.key()).status(), "lnp_ keys unaffected");
            }
            try (TestPlatform unset = TestPlatform.startOn(before, List.of("probe"), Map.of())) {
                assertEquals(200, unset.get("/api/v1/probe/items", legacy).status(),
                        "with no end configured, the compatibility period is open");
            }
        }
    }

    /** The shipped configuration file says what the server does when the setting is unset (accepted, above). */
    @Test
    void theShippedConfigurationFileDescribesTheUnsetCaseAsTheServerBehaves() throws Exception {
        java.nio.file.Path yaml = java.nio.file.Path.of("../../distribution/src/main/dist/conf/platform.yaml");
        List<String> lines = java.nio.file.Files.readAllLines(yaml);
        int setting = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().startsWith("# legacy_until:") || lines.get(i).strip().startsWith("legacy_until:")) {
                setting = i;
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(setting > 0, "legacy_until is in " + yaml);
        StringBuilder comment = new StringBuilder();
        for (int i = setting - 1; i >= 0 && lines.get(i).strip().startsWith("#"); i--) {
            comment.insert(0, lines.get(i).strip() + " ");
        }
        String unset = comment.substring(comment.indexOf("Unset:"));
        org.junit.jupiter.api.Assertions.assertTrue(unset.contains("accepted"), unset);
        org.junit.jupiter.api.Assertions.assertFalse(unset.contains("refused"), unset);
    }
}
