package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.core.db.Migrations;
import dev.lnp.testkit.TestDatabases;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** A list call's audit row names every row it read: its entities are compressed with lz4 where the server has it. */
class ToolCallAuditStorageTest {

    private String url;
    private PGSimpleDataSource dataSource;

    @BeforeEach
    void database() {
        url = TestDatabases.createDatabase("toolcallstorage");
        dataSource = new PGSimpleDataSource();
        dataSource.setUrl(url);
        dataSource.setUser(TestDatabases.server().user());
        dataSource.setPassword(TestDatabases.server().password());
    }

    @AfterEach
    void drop() {
        TestDatabases.dropDatabase(url);
    }

    @Test
    void theEntitiesOfAToolCallAreCompressedWithLz4WhenTheServerHasIt() {
        Jdbi jdbi = Jdbi.create(dataSource);
        new Migrations(dataSource, jdbi).migrateCore();

        String compression = jdbi.withHandle(h -> h.createQuery("""
                        SELECT attcompression::text FROM pg_attribute
                         WHERE attrelid = 'lnp_core.tool_calls'::regclass AND attname = 'entities'
                        """).mapTo(String.class).one());
        // The test servers (PostgreSQL 15 and 17 as packaged) are built with lz4, so the migration applies it.
        assertEquals("l", compression, "lz4 is attcompression 'l'");
    }
}
