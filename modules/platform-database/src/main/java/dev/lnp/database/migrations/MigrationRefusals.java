package dev.lnp.database.migrations;

import java.util.List;

/** When a start refuses a database's migration history, and when it runs beside what it finds with a warning. */
final class MigrationRefusals {

    private static final System.Logger LOG = System.getLogger(Migrations.class.getName());

    private MigrationRefusals() {
    }

    /**
     * Whether a node of this version may run against the database: not when a newer version applied a migration
     * that is not marked compatible (the schema may have changed under this version's queries). Compatible ones
     * are logged and tolerated, so an older node keeps (re)starting during a rolling upgrade.
     *
     * @param name how messages name the owner ({@code core} or the plugin id)
     */
    static void requireRunnable(Migrations.Status status, String name) {
        requireNothingMissing(status);
        List<Migrations.Newer> newer = status.newer();
        List<String> incompatible = newer.stream().filter(n -> !n.compatible()).map(n -> name + " " + n).toList();
        if (!incompatible.isEmpty()) {
            throw new IllegalStateException("The database was migrated by a newer version of the platform ("
                    + String.join(", ", incompatible) + ") that this version cannot run against; run that version "
                    + "or a newer one");
        }
        if (!newer.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "The database has migrations of a newer version ({0} {1}), all "
                    + "marked compatible: this node runs beside them; upgrade it soon", name, newer);
        }
    }

    /** Refuses a history with migrations nothing of this platform carries: Flyway's validation would refuse it too. */
    static void requireNothingMissing(Migrations.Status status) {
        if (!status.missing().isEmpty()) {
            throw new IllegalStateException("The database's " + status.owner().id() + " history has migrations "
                    + status.missing() + " that this platform does not carry: if a module of the platform took them "
                    + "over, its jar is missing from lib/");
        }
    }
}
