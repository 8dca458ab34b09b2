/**
 * The embedded PostgreSQL: the server the platform runs itself when no {@code lnp.database.url} is set, from the
 * zonky binaries of this machine's processor (linux amd64 or arm64), and the offline backup of its cluster. The
 * kernel finds it through {@link dev.lnp.database.EmbeddedDatabase.Launcher} (the database module's seam); nothing in
 * the kernel depends on it.
 */
module lnp.platform.embedded.postgres {
    requires lnp.platform.database;
    requires java.sql;
    requires org.apache.commons.compress;
    requires org.tukaani.xz;

    provides dev.lnp.database.EmbeddedDatabase.Launcher with dev.lnp.embedded.postgres.EmbeddedPostgresLauncher;

    // The CLI backs the cluster up and restores it; tests start a server of their own.
    exports dev.lnp.embedded.postgres to lnp.platform.cli, lnp.platform.testkit;
}
