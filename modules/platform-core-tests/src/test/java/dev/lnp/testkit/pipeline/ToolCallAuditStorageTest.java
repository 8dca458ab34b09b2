package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/** A list call's audit row names every row it read: its entities are compressed with lz4 where the server has it. */
@PlatformTest(plugins = {})
class ToolCallAuditStorageTest {

    @Test
    void theEntitiesOfAToolCallAreCompressedWithLz4WhenTheServerHasIt(TestPlatform platform) {
        String compression = platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT attcompression::text FROM pg_attribute
                         WHERE attrelid = 'lnp_core.tool_calls'::regclass AND attname = 'entities'
                        """).mapTo(String.class).one());
        // The test servers (PostgreSQL 15 and 17 as packaged) are built with lz4, so the migration applies it.
        assertEquals("l", compression, "lz4 is attcompression 'l'");
    }
}
