package dev.lnp.database.migrations;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * A subsystem's history taking over migrations that the core's history applied before the subsystem's tables had a
 * module of their own ({@link Migrations.SubsystemOwner#takenFromCore()}). The subsystem carries scripts of the same
 * versions with the same effect. On a database whose core history applied some of them, and where the subsystem has
 * no history yet, its history starts as a Flyway baseline at the highest of those versions: its later scripts apply
 * on top, the earlier ones count as done. The core's history keeps its rows (a node of the previous version, which
 * still carries those scripts, finds its history as it left it); this version's core tolerates exactly those
 * versions missing from what it carries.
 */
final class CoreHistoryTakeOver {

    /** Held while a subsystem's history is created, so that nodes starting at once baseline it once: "lnptakeo". */
    private static final long TAKE_OVER_LOCK = 0x6c6e7074616b656fL;

    private final Jdbi jdbi;

    CoreHistoryTakeOver(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /**
     * Baselines the subsystem's history when it has none and the core's history applied some of the versions it
     * took over; does nothing otherwise (a fresh database, one older than those versions, or one taken over already).
     *
     * @param configuration the subsystem owner's Flyway configuration, as its migrations use it
     */
    void takeOver(Migrations.SubsystemOwner subsystem, FluentConfiguration configuration) {
        if (subsystem.takenFromCore().isEmpty()) {
            return;
        }
        jdbi.useHandle(h -> {
            h.createQuery("SELECT pg_advisory_lock(:lock)").bind("lock", TAKE_OVER_LOCK).mapToMap().one();
            try {
                if (!hasHistory(h, subsystem.owner().schema())) {
                    appliedByCore(h, subsystem.takenFromCore()).ifPresent(version -> configuration
                            .baselineVersion(version)
                            .baselineDescription("taken over from " + Migrations.Owner.core().id())
                            .load().baseline());
                }
            } finally {
                h.createQuery("SELECT pg_advisory_unlock(:lock)").bind("lock", TAKE_OVER_LOCK).mapToMap().one();
            }
        });
    }

    private static boolean hasHistory(Handle h, String schema) {
        return h.createQuery("SELECT to_regclass(format('%I.flyway_history', CAST(:schema AS text))) IS NOT NULL")
                .bind("schema", schema).mapTo(Boolean.class).one();
    }

    /** The highest of {@code versions} that the core's history applied successfully. */
    private static Optional<String> appliedByCore(Handle h, List<String> versions) {
        if (!hasHistory(h, Migrations.CORE_SCHEMA)) {
            return Optional.empty();
        }
        return h.createQuery("""
                        SELECT version FROM lnp_core.flyway_history WHERE success AND version = ANY(CAST(:versions AS text[]))
                        """)
                .bindArray("versions", String.class, versions)
                .mapTo(String.class).list().stream()
                .max(Comparator.comparing(MigrationVersion::fromVersion));
    }
}
