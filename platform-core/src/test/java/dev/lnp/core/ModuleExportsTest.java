package dev.lnp.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URI;
import java.net.URL;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Plugins compile against the API, never against the kernel: every package of {@code lnp.platform.core} is
 * exported only to named modules that need it (docs/architecture.md, "Module map"). Read from the compiled
 * descriptor, since tests run on the class path where module boundaries are not enforced.
 */
class ModuleExportsTest {

    private static ModuleDescriptor core() throws IOException {
        // The descriptor beside the kernel's classes (folder or jar), not the first one on the class path.
        String platformClass = Platform.class.getResource("Platform.class").toString();
        URL descriptor = URI.create(platformClass.substring(0, platformClass.length()
                - "dev/lnp/core/Platform.class".length()) + "module-info.class").toURL();
        try (InputStream in = descriptor.openStream()) {
            return ModuleDescriptor.read(in);
        }
    }

    @Test
    void theKernelExportsNoPackageToEveryone() throws IOException {
        ModuleDescriptor core = core();
        assertEquals("lnp.platform.core", core.name());
        Set<String> unqualified = new TreeSet<>();
        core.exports().stream().filter(e -> !e.isQualified()).forEach(e -> unqualified.add(e.source()));
        assertTrue(unqualified.isEmpty(), "exported to every module: " + unqualified);
    }

    @Test
    void onlyTheCliTheTestkitAndLibrariesThatReflectOnTheKernelSeeItsPackages() throws IOException {
        // The embedded PostgreSQL implements the database module's seam, not the kernel's.
        Set<String> targets = new TreeSet<>();
        core().exports().forEach(e -> targets.addAll(e.targets()));
        assertEquals(Set.of("lnp.platform.cli", "lnp.platform.testkit", "com.fasterxml.jackson.databind"), targets);
    }
}
