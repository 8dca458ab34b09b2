package dev.lnp.database;

import java.nio.file.Path;
import java.util.ServiceLoader;

/**
 * The PostgreSQL the platform runs itself when no {@code lnp.database.url} is set. The kernel knows only this
 * interface; the server comes from the module {@code lnp.platform.embedded.postgres}, found through
 * {@link ServiceLoader} as subsystems are, so a deployment that always names its database can leave it out.
 */
public interface EmbeddedDatabase {

    /** JDBC URL of a database on this server. */
    String jdbcUrl(String database);

    /** The superuser the platform connects as (trust authentication on loopback). */
    String username();

    void createDatabaseIfMissing(String name);

    /** False when a server already running on the data directory was reused (e.g. a running platform's). */
    boolean startedHere();

    /** Stops the server (fast shutdown: rolls back open transactions, then checkpoints). */
    void stop();

    /** Starts, or reuses, the server whose cluster lives under a data directory. */
    interface Launcher {

        /** {@code runAsUser} runs the server when the JVM is root, since PostgreSQL refuses to. */
        EmbeddedDatabase start(Path dataDir, String runAsUser);
    }

    /** Starts the embedded server with the launcher on the module or class path; fails clearly without one. */
    static EmbeddedDatabase start(Path dataDir, String runAsUser) {
        Launcher launcher = ServiceLoader.load(Launcher.class).findFirst().orElseThrow(() -> new IllegalStateException(
                "lnp.database.url is not set and this installation has no embedded PostgreSQL "
                        + "(lnp.platform.embedded.postgres): set lnp.database.url (LNP_DATABASE_URL) to a PostgreSQL"));
        return launcher.start(dataDir, runAsUser);
    }
}
