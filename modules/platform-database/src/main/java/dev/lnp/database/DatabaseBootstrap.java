package dev.lnp.database;

import java.lang.System.Logger.Level;
import java.util.Optional;

/**
 * Where the database comes from: {@code lnp.database.url} when set, else an embedded PostgreSQL with its
 * data in {@code <data dir>/pgsql}, started here and stopped on shutdown.
 */
public final class DatabaseBootstrap implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(DatabaseBootstrap.class.getName());

    private final DatabaseSettings config;
    private final boolean stopsReusedServer;
    private EmbeddedDatabase embedded;

    private DatabaseBootstrap(DatabaseSettings config, boolean stopsReusedServer) {
        this.config = config;
        this.stopsReusedServer = stopsReusedServer;
    }

    /**
     * For the server: the embedded PostgreSQL is its own, even when it reuses one left running by a process that
     * died, and stops with it.
     */
    public static DatabaseBootstrap from(DatabaseSettings config) {
        return new DatabaseBootstrap(config, true);
    }

    /** For an operator command beside a running server: a server it did not start is left running. */
    public static DatabaseBootstrap forOperatorCommand(DatabaseSettings config) {
        return new DatabaseBootstrap(config, false);
    }

    public Database connect() {
        int pool = config.databasePoolSize();
        Optional<String> url = config.databaseUrl();
        if (url.isPresent()) {
            return Database.connect(url.get(), config.databaseUser(), config.databasePassword(), pool);
        }
        LOG.log(Level.INFO, "No lnp.database.url set; starting the embedded PostgreSQL in {0}", config.dataDir());
        embedded = EmbeddedDatabase.start(config.dataDir(), config.embeddedDatabaseUser());
        embedded.createDatabaseIfMissing("lnp");
        return Database.connect(embedded.jdbcUrl("lnp"), Optional.of(embedded.username()), Optional.empty(), pool);
    }

    @Override
    public void close() {
        if (embedded != null) {
            if (stopsReusedServer || embedded.startedHere()) {
                embedded.stop();
            }
            embedded = null;
        }
    }
}
