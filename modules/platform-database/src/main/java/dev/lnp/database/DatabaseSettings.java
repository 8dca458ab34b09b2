package dev.lnp.database;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The settings {@link DatabaseBootstrap} reads when it connects (the platform's configuration is one): read then,
 * not before, so a bad one fails the connection, as it always did.
 */
public interface DatabaseSettings {

    /** {@code lnp.database.url}; empty for the embedded PostgreSQL. */
    Optional<String> databaseUrl();

    Optional<String> databaseUser();

    Optional<String> databasePassword();

    /** {@code lnp.database.pool.size}: the request pool's connections. */
    int databasePoolSize();

    /** {@code lnp.data.dir}: the embedded PostgreSQL's cluster lives under it. */
    Path dataDir();

    /** The user the embedded PostgreSQL runs as when the platform runs as root. */
    String embeddedDatabaseUser();
}
