package dev.lnp.database.migrations;

import java.util.concurrent.Future;
import javax.sql.DataSource;

/** Migration histories read on threads of their own: how many at once, and waiting for one. */
final class HistoryReads {

    private HistoryReads() {
    }

    /**
     * How many histories may be read at once. Flyway holds two pooled connections while it reads one (its main
     * connection and the one it would migrate on), so readers that each got one connection and wait for a second
     * would take a small pool whole and never finish: a pool of 4 and seven plugins refused every start. Half the
     * pool, less one connection left for anything else starting, and at least one reader.
     */
    static int concurrentReads(DataSource dataSource) {
        int pool = dataSource instanceof com.zaxxer.hikari.HikariDataSource hikari ? hikari.getMaximumPoolSize() : 2;
        return Math.max(1, (pool - 1) / 2);
    }

    static Migrations.Status await(Future<Migrations.Status> read) {
        try {
            return read.get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the migration histories", e);
        }
    }
}
