/**
 * The database plumbing, a layer below the kernel: the connection pools and their outage ({@code Database},
 * {@code DatabaseOutage}), where the database comes from ({@code DatabaseBootstrap}, the embedded database's seam
 * {@code EmbeddedDatabase}), the LISTEN/NOTIFY connection ({@code PgNotifications}), the opening statement of a
 * workspace transaction ({@code opening}), the migrations of the core, the subsystems and the plugins
 * ({@code migrations}) and the batched writer of the audit logs ({@code batch}). It knows nothing of the kernel: the
 * kernel passes its settings ({@code DatabaseSettings}) and the admission a transaction checks
 * ({@code AdmissionVersionCheck}).
 */
module lnp.platform.database {
    requires transitive lnp.platform.api; // WorkspaceTx, and Jdbi and java.sql, which it re-exports
    requires lnp.platform.api.internal; // Subsystem and OwnedMigrations (Migrations), Notifications (PgNotifications)
    requires transitive com.zaxxer.hikari; // the writers' pool, for its metrics (Database.writerPool)
    requires org.postgresql.jdbc;
    requires flyway.core;
    requires flyway.database.postgresql;

    uses dev.lnp.database.EmbeddedDatabase.Launcher; // lnp.platform.embedded.postgres, when no database URL is set

    // The kernel runs the database; the operator CLI bootstraps, migrates and checks it; the testkit reads a booted
    // platform's pool; the embedded PostgreSQL implements the seam.
    exports dev.lnp.database
            to lnp.platform.core, lnp.platform.cli, lnp.platform.testkit, lnp.platform.embedded.postgres;
    exports dev.lnp.database.migrations to lnp.platform.core, lnp.platform.cli;
    exports dev.lnp.database.opening to lnp.platform.core;
    exports dev.lnp.database.batch to lnp.platform.core;
}
