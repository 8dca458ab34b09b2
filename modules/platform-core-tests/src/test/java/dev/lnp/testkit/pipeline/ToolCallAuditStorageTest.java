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
        // The JSON columns older versions wrote a list call's ids to: `entity_groups` and, before
        // that, `entities`. This version writes them as 800 bytes to `entity_ids`, which stay in line.
        java.util.List<String> compression = platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT attcompression::text FROM pg_attribute
                         WHERE attrelid = 'lnp_core.tool_calls'::regclass AND attname IN ('entities', 'entity_groups')
                        """).mapTo(String.class).list());
        // The test servers (PostgreSQL 15 and 17 as packaged) are built with lz4, so the migrations apply it.
        assertEquals(java.util.List.of("l", "l"), compression, "lz4 is attcompression 'l'");
    }
}
