package dev.lnp.database;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kernel alone has no embedded server: without a database URL it says which setting to give. */
class EmbeddedDatabaseTest {

    @Test
    void withoutTheEmbeddedModuleTheErrorNamesTheDatabaseUrlSetting(@TempDir Path dataDir) {
        var error = assertThrows(IllegalStateException.class, () -> EmbeddedDatabase.start(dataDir, "nobody"));
        assertTrue(error.getMessage().contains("lnp.platform.embedded.postgres"), error.getMessage());
        assertTrue(error.getMessage().contains("set lnp.database.url (LNP_DATABASE_URL)"), error.getMessage());
    }
}
