package dev.lnp.database.migrations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.internal.subsystem.OwnedMigrations;
import dev.lnp.api.internal.subsystem.Subsystem;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A subsystem's migrations have an owner and a history schema of their own, never the core's or a plugin's. */
class OwnedMigrationsTest {

    @Test
    void aSubsystemsMigrationsAreReadThroughItsOwnClassLoader() {
        Subsystem owning = new Subsystem() {
            @Override
            public Optional<OwnedMigrations> migrations() {
                return Optional.of(new OwnedMigrations("lnp-probe", "lnp_probe", List.of("6", "13.20")));
            }
        };
        Subsystem none = new Subsystem() {
        };

        var owners = Migrations.SubsystemOwner.of(List.of(none, owning));

        assertEquals(List.of(new Migrations.SubsystemOwner(new Migrations.Owner("lnp-probe", "lnp_probe",
                owning.getClass().getClassLoader()), List.of("6", "13.20"))), owners);
    }

    @Test
    void theCoresOwnerAndSchemaAndAPluginsNamesAreRefused() {
        assertRefused(() -> new OwnedMigrations("lnp-core", "lnp_probe", List.of()), "lnp-core");
        assertRefused(() -> new OwnedMigrations("crm", "lnp_probe", List.of()), "crm");
        assertRefused(() -> new OwnedMigrations("lnp-probe", "lnp_core", List.of()), "lnp_core");
        assertRefused(() -> new OwnedMigrations("lnp-probe", "crm", List.of()), "crm");
        assertRefused(() -> new OwnedMigrations("lnp-probe", "lnp_probe", List.of("V6")), "V6");
    }

    private static void assertRefused(Runnable declaration, String named) {
        var error = assertThrows(IllegalArgumentException.class, declaration::run);
        assertTrue(error.getMessage().contains(named), error.getMessage());
    }
}
