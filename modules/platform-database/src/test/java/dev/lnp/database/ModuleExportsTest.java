package dev.lnp.database;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URI;
import java.net.URL;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The database plumbing is below the kernel and no plugin's business: every package is exported only to the modules
 * that use it. Read from the compiled descriptor, since tests run on the class path where module boundaries are not
 * enforced.
 */
class ModuleExportsTest {

    private static ModuleDescriptor database() throws IOException {
        // The descriptor beside this module's classes (folder or jar), not the first one on the class path.
        String databaseClass = Database.class.getResource("Database.class").toString();
        URL descriptor = URI.create(databaseClass.substring(0, databaseClass.length()
                - "dev/lnp/database/Database.class".length()) + "module-info.class").toURL();
        try (InputStream in = descriptor.openStream()) {
            return ModuleDescriptor.read(in);
        }
    }

    @Test
    void eachPackageIsExportedOnlyToTheModulesThatUseIt() throws IOException {
        ModuleDescriptor database = database();
        assertEquals("lnp.platform.database", database.name());
        Map<String, Set<String>> targets = new TreeMap<>();
        database.exports().forEach(e -> targets.put(e.source(), e.targets()));
        assertEquals(Map.of(
                "dev.lnp.database", Set.of("lnp.platform.core", "lnp.platform.cli", "lnp.platform.testkit",
                        "lnp.platform.embedded.postgres"),
                "dev.lnp.database.migrations", Set.of("lnp.platform.core", "lnp.platform.cli"),
                "dev.lnp.database.opening", Set.of("lnp.platform.core"),
                "dev.lnp.database.batch", Set.of("lnp.platform.core")), targets);
    }
}
