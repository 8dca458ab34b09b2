package dev.lnp.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.Optional;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.TemplateEngine;

/** The platform's connection pool and Jdbi instance. */
public final class Database implements AutoCloseable {

    private static final java.util.concurrent.ExecutorService PROBES =
            java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();

    private final HikariDataSource dataSource;
    private final HikariDataSource writerPool;
    private final Opening opening;
    private final ConnectionWaits waits;
    private final Jdbi jdbi;
    private final Jdbi writers;
    private volatile Runnable onUnreachable = () -> { };

    private Database(HikariDataSource dataSource, HikariDataSource writerPool, Opening opening) {
        this.dataSource = dataSource;
        this.writerPool = writerPool;
        this.opening = opening;
        this.waits = new ConnectionWaits(dataSource);
        this.jdbi = Jdbi.create(waits);
        // No SQL here uses Jdbi's <attribute> templates (nothing calls define): without an engine the text is not
        // rendered again for every statement (1.5 % of a page's allocation, JFR).
        this.jdbi.setTemplateEngine(TemplateEngine.NOP);
        this.writers = Jdbi.create(writerPool);
        this.writers.setTemplateEngine(TemplateEngine.NOP);
    }

    /**
     * Connections of the node's batched writers (the audit log and the tool-call audit, one each). They are a pool
     * of their own: taken from the request pool, a writer's batch left one connection fewer for requests every few
     * milliseconds, and with as many requests in flight as the pool has connections a request then waited for one
     * (65 µs on average at 16 connections, against 0.6 µs with two more). Opened when first used, so a start opens none.
     */
    static final int WRITER_CONNECTIONS = 2;

    /**
     * Run on every pooled connection as it opens: holds one of 16 session advisory locks for the connection's
     * life and records its number in {@code lnp.counter_stripe}, which {@code lnp_core.counter_stripe()} returns.
     * With the backend pid modulo 16, a pool of 16 shared a stripe on about six of its connections, and those
     * writers queued on each other's counter row (Lock:transactionid in POST's wait samples). When
     * every slot is held (more than 16 connections on the database), the function falls back to the pid. The
     * locks' first key is 'lnps': two-key advisory locks never meet the one-key locks Flyway takes.
     */
    static final String CLAIM_COUNTER_STRIPE = """
            DO $$
            BEGIN
                FOR slot IN 0..15 LOOP
                    IF pg_try_advisory_lock(%d, slot) THEN
                        PERFORM set_config('lnp.counter_stripe', slot::text, false);
                        RETURN;
                    END IF;
                END LOOP;
            END
            $$""".formatted(0x6C6E7073);

    public static Database connect(String jdbcUrl, Optional<String> user, Optional<String> password, int poolSize) {
        HikariConfig config = new HikariConfig();
        // The driver's data source, so that a connection the pool fails to open tells the outage at once (see
        // Opening) instead of the pool's waiters finding out after its connection timeout.
        var opening = new Opening();
        opening.setUrl(jdbcUrl);
        opening.setApplicationName("lnp-platform");
        opening.setReWriteBatchedInserts(true);
        config.setDataSource(opening);
        user.ifPresent(config::setUsername);
        password.ifPresent(config::setPassword);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(Math.min(2, poolSize));
        config.setPoolName("lnp");
        config.setConnectionInitSql(CLAIM_COUNTER_STRIPE);
        // Fail fast when the database is down: readiness reports it instead of requests hanging.
        config.setConnectionTimeout(5_000);
        config.setInitializationFailTimeout(-1);
        Database database = new Database(new HikariDataSource(config), writerPool(opening, user, password), opening);
        opening.database = database;
        return database;
    }

    /** The batched writers' pool: the same database and credentials, no counter stripe (they write no counter). */
    private static HikariDataSource writerPool(Opening opening, Optional<String> user, Optional<String> password) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(opening);
        user.ifPresent(config::setUsername);
        password.ifPresent(config::setPassword);
        config.setMaximumPoolSize(WRITER_CONNECTIONS);
        config.setMinimumIdle(0);
        config.setPoolName("lnp-writers");
        config.setConnectionTimeout(5_000);
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }

    /** The driver's data source; a connection it cannot open because the server is gone reports the outage. */
    private static final class Opening extends org.postgresql.ds.PGSimpleDataSource {
        private volatile Database database;

        @Override
        public java.sql.Connection getConnection(String user, String password) throws java.sql.SQLException {
            try {
                return super.getConnection(user, password);
            } catch (java.sql.SQLException e) {
                Database owner = database;
                if (owner != null && isUnreachable(e)) {
                    owner.onUnreachable.run();
                }
                throw e;
            }
        }
    }

    /**
     * A lost or refused connection (SQLSTATE class 08), a pool that could not hand one out, or a server shutting
     * down under the request (57P01 to 57P03: administrator or crash shutdown, cannot connect now).
     */
    public static boolean isUnreachable(Throwable failure) {
        return SqlStates.noConnectionHandedOut(failure)
                || SqlStates.find(failure, state -> state.startsWith("08") || state.startsWith("57P0")) != null;
    }

    /** What to do when the pool fails to open a connection because the database is gone (the outage's report). */
    void onUnreachable(Runnable action) {
        this.onUnreachable = action;
    }

    /** Ends the waits of requests for a connection and refuses new ones without waiting ({@link ConnectionWaits}). */
    void endRequestWaits() {
        waits.unreachable();
    }

    /** How many requests wait for a pooled connection right now (the outage tests watch it). */
    public int requestsWaitingForConnection() {
        return waits.waiting();
    }

    /** Requests wait for connections again: the database is back. */
    void admitRequestWaits() {
        waits.reachable();
    }

    /** Marks the current thread (a request) as one whose connection waits an outage may end; see ConnectionWaits. */
    public static WaitScope cutShortOnOutage() {
        return ConnectionWaits.cutShortOnOutage();
    }

    /** The span of {@link #cutShortOnOutage()}; closing it cannot fail. */
    public interface WaitScope extends AutoCloseable {
        @Override
        void close();
    }

    public Jdbi jdbi() {
        return jdbi;
    }

    /** Jdbi on the batched writers' own connections ({@link #WRITER_CONNECTIONS}); nothing else uses them. */
    public Jdbi writerJdbi() {
        return writers;
    }

    /** The batched writers' pool, for its metrics. */
    public HikariDataSource writerPool() {
        return writerPool;
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * A connection outside the pool, with the pool's settings and credentials (the node's LISTEN connection, held
     * for the node's life, so the pool keeps all of its own); the caller closes it.
     */
    public java.sql.Connection openUnpooled() throws java.sql.SQLException {
        return dataSource.getUsername() == null ? opening.getConnection()
                : opening.getConnection(dataSource.getUsername(), dataSource.getPassword());
    }

    /**
     * True when a connection can be had and answers within a second. Bounded by its own deadline, because the
     * pool waits longer than a health probe should when the database is gone.
     */
    public boolean isReachable() {
        return answersWithin(dataSource::getConnection);
    }

    /**
     * True when a connection of its own, outside the pool, opens and answers within a second and a half: the
     * database is there even when every pooled connection is busy.
     */
    public boolean answersOutsideThePool() {
        return answersWithin(this::openUnpooled);
    }

    private interface ConnectionSource {
        java.sql.Connection open() throws java.sql.SQLException;
    }

    /** Whether a connection from {@code source} opens and answers within 1.5 s, on a thread of its own. */
    private static boolean answersWithin(ConnectionSource source) {
        var probe = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (var connection = source.open()) {
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
        writerPool.close();
        dataSource.close();
    }
}
