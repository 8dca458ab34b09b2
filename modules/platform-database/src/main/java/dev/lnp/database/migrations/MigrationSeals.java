package dev.lnp.database.migrations;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

/**
 * The record, per schema, that Flyway found its history up to date for what a binary carries
 * ({@code lnp_core.migration_seals}, {@link CarriedMigrations}), so that a restart with the same binary on the
 * same histories checks all of them with one statement instead of Flyway per schema. A seal only ever
 * short-cuts a check that found nothing to do: anything that differs misses it, and Flyway decides as before.
 */
final class MigrationSeals {

    /** SQL states of a database the core's seal migration has not reached yet: no seal can match there. */
    private static final Set<String> NOT_YET_MIGRATED = Set.of("42P01", "42883", "3F000");

    private final Jdbi jdbi;

    MigrationSeals(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /**
     * Of the given schemas (each with the digest of what this binary carries for it), those whose seal matches
     * both that digest and their history as it is now, each with the version it is at. One statement.
     */
    Map<String, String> matching(Map<String, String> carriedBySchema) {
        if (carriedBySchema.isEmpty()) {
            return Map.of();
        }
        List<String> schemas = List.copyOf(carriedBySchema.keySet());
        List<String> carried = schemas.stream().map(carriedBySchema::get).toList();
        return tolerateNotYetMigrated(() -> jdbi.withHandle(h -> h.createQuery("""
                        SELECT s.history_schema, s.current
                          FROM lnp_core.migration_seals s
                          JOIN unnest(CAST(:schemas AS text[]), CAST(:carried AS text[])) AS c(history_schema, carried)
                            ON c.history_schema = s.history_schema AND c.carried = s.carried
                         WHERE s.history = lnp_core.migration_history_digest(s.history_schema)
                        """)
                .bindArray("schemas", String.class, schemas)
                .bindArray("carried", String.class, carried)
                .map((row, context) -> Map.entry(row.getString("history_schema"), row.getString("current")))
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue))), Map.of());
    }

    /** The digest of a schema's history as it is now; empty when it has none or the database has no seals yet. */
    Optional<String> history(String schema) {
        return tolerateNotYetMigrated(() -> jdbi.withHandle(h -> h.createQuery(
                        "SELECT lnp_core.migration_history_digest(:schema)")
                .bind("schema", schema)
                .mapTo(String.class)
                .findOne()), Optional.empty());
    }

    /**
     * Records that Flyway found the schema up to date for what this binary carries, given the history's digest
     * read before Flyway's check: written only if the history still has that digest, so a history another node
     * changed meanwhile is never sealed as up to date.
     */
    void seal(String schema, String carried, String historyBeforeCheck, String current) {
        tolerateNotYetMigrated(() -> jdbi.withHandle(h -> h.createUpdate("""
                        INSERT INTO lnp_core.migration_seals (history_schema, carried, history, current)
                        SELECT :schema, :carried, :history, :current
                         WHERE lnp_core.migration_history_digest(:schema) = :history
                        ON CONFLICT (history_schema) DO UPDATE
                           SET carried = excluded.carried, history = excluded.history, current = excluded.current,
                               sealed_at = now()
                        """)
                .bind("schema", schema)
                .bind("carried", carried)
                .bind("history", historyBeforeCheck)
                .bind("current", current)
                .execute()), 0);
    }

    private static <T> T tolerateNotYetMigrated(java.util.function.Supplier<T> statement, T otherwise) {
        try {
            return statement.get();
        } catch (JdbiException e) {
            if (e.getCause() instanceof SQLException sql && NOT_YET_MIGRATED.contains(sql.getSQLState())) {
                return otherwise;
            }
            throw e;
        }
    }
}
