package dev.lnp.core.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.Optional;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;

/** The platform's connection pool and Jdbi instance. */
public final class Database implements AutoCloseable {

    private static final java.util.concurrent.ExecutorService PROBES =
            java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();

    private final HikariDataSource dataSource;
    private final Jdbi jdbi;

    private Database(HikariDataSource dataSource) {
        this.dataSource = dataSource;
        this.jdbi = Jdbi.create(dataSource);
    }

    public static Database connect(String jdbcUrl, Optional<String> user, Optional<String> password, int poolSize) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        user.ifPresent(config::setUsername);
        password.ifPresent(config::setPassword);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(Math.min(2, poolSize));
        config.setPoolName("lnp");
        // Fail fast when the database is down: readiness reports it instead of requests hanging.
        config.setConnectionTimeout(5_000);
        config.setInitializationFailTimeout(-1);
        config.addDataSourceProperty("ApplicationName", "lnp-platform");
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        return new Database(new HikariDataSource(config));
    }

    public Jdbi jdbi() {
        return jdbi;
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * True when a connection can be had and answers within a second. Bounded by its own deadline, because the
     * pool waits longer than a health probe should when the database is gone.
     */
    public boolean isReachable() {
        var probe = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (var connection = dataSource.getConnection()) {
                return connection.isValid(1);
            } catch (Exception e) {
                return false;
            }
        }, PROBES);
        try {
            return probe.get(1500, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            return false;
        }
    }

    public boolean isClosed() {
        return dataSource.isClosed();
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
