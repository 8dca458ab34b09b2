package dev.lnp.core.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lnp.api.Json;
import dev.lnp.api.mcp.EntityRef;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The tool-call audit stores a call's refs as groups and ids: they must come back as they were, in their order. */
class EntityGroupsTest {

    @Test
    void refsComeBackAsTheyWereInTheirOrder() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        List<List<EntityRef>> cases = List.of(
                List.of(),
                List.of(new EntityRef("contact", a, "read")),
                // A type and action that come back after another group start a group of their own.
                List.of(new EntityRef("deal", a, "updated"), new EntityRef("contact", b, "read"),
                        new EntityRef("deal", b, "updated")),
                List.of(new EntityRef("deal", null, "created"), new EntityRef(null, a, null),
                        new EntityRef(null, b, null), new EntityRef("deal", null, "created"),
                        new EntityRef("a \"quoted\" \\ type\n\u00e9\u20ac\uD83D\uDE00\u0001", b, "updated")));
        for (List<EntityRef> refs : cases) {
            assertEquals(refs, EntityGroups.read(EntityGroups.kinds(refs), EntityGroups.ids(refs)), refs.toString());
        }
    }

    @Test
    void aListCallsFiftyRefsAreOneGroupAndSixteenBytesAnId() throws Exception {
        List<EntityRef> refs = IntStream.range(0, 50)
                .mapToObj(i -> new EntityRef("contact", UUID.randomUUID(), "read")).toList();
        assertEquals(Json.mapper().readTree("[{\"type\": \"contact\", \"action\": \"read\", \"count\": 50}]"),
                Json.mapper().readTree(EntityGroups.kinds(refs)));
        byte[] ids = EntityGroups.ids(refs);
        assertEquals(800, ids.length);
        // PostgreSQL's own byte order for a uuid, so `substring(entity_ids …)::uuid` style reads agree.
        ByteBuffer last = ByteBuffer.wrap(ids, 784, 16);
        assertEquals(refs.get(49).id(), new UUID(last.getLong(), last.getLong()));
        assertEquals(refs, EntityGroups.read(EntityGroups.kinds(refs), ids));
    }

    @Test
    void consecutiveRefsOfOneTypeAndActionShareAGroup() throws Exception {
        List<EntityRef> refs = List.of(new EntityRef("deal", UUID.randomUUID(), "updated"),
                new EntityRef("deal", UUID.randomUUID(), "updated"), new EntityRef("deal", UUID.randomUUID(), "deleted"));
        assertEquals(Json.mapper().readTree("""
                [{"type": "deal", "action": "updated", "count": 2},
                 {"type": "deal", "action": "deleted", "count": 1}]"""),
                Json.mapper().readTree(EntityGroups.kinds(refs)));
    }

    @Test
    void idsFewerThanTheKindsCountAreAnErrorNotAShortList() {
        List<EntityRef> refs = List.of(new EntityRef("deal", UUID.randomUUID(), "read"),
                new EntityRef("deal", UUID.randomUUID(), "read"));
        byte[] one = java.util.Arrays.copyOf(EntityGroups.ids(refs), 16);
        assertThrows(IllegalStateException.class, () -> EntityGroups.read(EntityGroups.kinds(refs), one));
    }

    @Test
    void theGroupsOfRowsTheVersionsBeforeRecordedAreRead() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        String stored = """
                [{"ids": ["%s", null], "type": "deal", "action": "updated"},
                 {"ids": ["%s"], "type": "contact", "action": "read"}]""".formatted(a, b);
        assertEquals(List.of(new EntityRef("deal", a, "updated"), new EntityRef("deal", null, "updated"),
                new EntityRef("contact", b, "read")), EntityGroups.readGrouped(stored));
    }
}
