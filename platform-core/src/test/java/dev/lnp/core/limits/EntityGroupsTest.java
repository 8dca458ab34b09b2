package dev.lnp.core.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.api.Json;
import dev.lnp.api.mcp.EntityRef;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The tool-call audit stores a call's refs grouped: they must come back as they were, in their order. */
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
                        new EntityRef(null, b, null),
                        new EntityRef("a \"quoted\" \\ type\n\u00e9\u20ac\uD83D\uDE00\u0001", b, "updated")));
        for (List<EntityRef> refs : cases) {
            assertEquals(refs, EntityGroups.read(EntityGroups.write(refs)), refs.toString());
        }
    }

    @Test
    void aListCallsFiftyRefsAreOneGroup() throws Exception {
        List<EntityRef> refs = IntStream.range(0, 50)
                .mapToObj(i -> new EntityRef("contact", UUID.randomUUID(), "read")).toList();
        String written = EntityGroups.write(refs);
        var groups = Json.mapper().readTree(written);
        assertEquals(1, groups.size(), written);
        assertEquals("contact", groups.get(0).get("type").textValue());
        assertEquals("read", groups.get(0).get("action").textValue());
        assertEquals(refs.get(49).id().toString(), groups.get(0).get("ids").get(49).textValue());
        assertEquals(refs, EntityGroups.read(written));
    }

    @Test
    void consecutiveRefsOfOneTypeAndActionShareAGroup() throws Exception {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        String written = EntityGroups.write(List.of(new EntityRef("deal", a, "updated"),
                new EntityRef("deal", b, "updated"), new EntityRef("deal", a, "deleted")));
        assertEquals(Json.mapper().readTree("""
                [{"type": "deal", "action": "updated", "ids": ["%s", "%s"]},
                 {"type": "deal", "action": "deleted", "ids": ["%s"]}]""".formatted(a, b, a)),
                Json.mapper().readTree(written));
    }
}
