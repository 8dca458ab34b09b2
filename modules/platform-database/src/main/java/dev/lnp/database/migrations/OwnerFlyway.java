package dev.lnp.database.migrations;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * Flyway as {@link Migrations} configures it for one owner (its history schema and table, its scripts through its
 * class loader, the placeholders), what this binary carries for it ({@link CarriedMigrations}), and what its history
 * holds against that ({@link Migrations.Status}).
 */
final class OwnerFlyway {

    private static final String HISTORY_TABLE = "flyway_history";
    private static final Map<String, String> PLACEHOLDERS = Map.of("tenant_role", Migrations.TENANT_ROLE);

    private final DataSource dataSource;
    /** The versions of the core's history that subsystems of this platform took over, in Flyway's notation. */
    private final Set<String> takenFromCore;

    OwnerFlyway(DataSource dataSource, Set<String> takenFromCore) {
        this.dataSource = dataSource;
        this.takenFromCore = Set.copyOf(takenFromCore);
    }

    /** The digest of what this binary carries for the owner, with every setting that changes Flyway's view of it. */
    Optional<String> carried(Migrations.Owner owner) {
        return CarriedMigrations.digest(owner, "table " + HISTORY_TABLE + ", placeholders " + PLACEHOLDERS
                + (isCore(owner) ? ", taken over " + new java.util.TreeSet<>(takenFromCore) : ""));
    }

    private static boolean isCore(Migrations.Owner owner) {
        return owner.id().equals(Migrations.Owner.core().id());
    }

    /** See {@link Migrations#status}. */
    Migrations.Status status(Migrations.Owner owner) {
        var info = configure(owner).load().info();
        List<Migrations.Newer> newer = java.util.Arrays.stream(info.all())
                .filter(m -> m.getState().name().startsWith("FUTURE"))
                .map(m -> new Migrations.Newer(m.getVersion().toString(), m.getDescription())).toList();
        List<String> missing = java.util.Arrays.stream(info.all())
                .filter(m -> m.getState().name().startsWith("MISSING") && !takenOver(owner, m))
                .map(m -> "V" + m.getVersion() + " " + m.getDescription()).toList();
        var current = info.current();
        boolean upToDate = java.util.Arrays.stream(info.all()).allMatch(m -> switch (m.getState()) {
            case SUCCESS -> m.isChecksumMatching() && m.isDescriptionMatching() && m.isTypeMatching();
            // A history taken over from the core's: its baseline, and the scripts at or below it, count as done.
            case BASELINE, BELOW_BASELINE, BASELINE_IGNORED -> true;
            case MISSING_SUCCESS -> takenOver(owner, m);
            default -> false;
        });
        return new Migrations.Status(owner, current == null || current.getVersion() == null ? "none" : "V" + current.getVersion(),
                info.pending().length, newer, missing, upToDate && info.all().length > 0);
    }

    /** A migration of the core's history that a subsystem of this platform took over. */
    private boolean takenOver(Migrations.Owner owner, org.flywaydb.core.api.MigrationInfo migration) {
        return isCore(owner) && migration.getState() == MigrationState.MISSING_SUCCESS
                && takenFromCore.contains(migration.getVersion().getVersion());
    }

    /**
     * The core ignores the migrations missing from what it carries only once
     * {@link MigrationRefusals#requireNothingMissing} found
     * them all taken over by subsystems: Flyway names no versions in its patterns.
     */
    FluentConfiguration configure(Migrations.Owner owner) {
        String schema = owner.schema();
        FluentConfiguration configuration = Flyway.configure(owner.classLoader())
                .dataSource(dataSource)
                .schemas(schema)
                .defaultSchema(schema)
                .createSchemas(true)
                .table(HISTORY_TABLE)
                .locations("classpath:db/migration/" + owner.id())
                .placeholders(PLACEHOLDERS)
                .failOnMissingLocations(false)
                .callbacks(new NoticesOff());
        return isCore(owner) && !takenFromCore.isEmpty()
                ? configuration.ignoreMigrationPatterns("*:future", "*:missing") : configuration;
    }
}
