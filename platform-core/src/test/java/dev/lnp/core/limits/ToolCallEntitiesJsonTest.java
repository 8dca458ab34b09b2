package dev.lnp.core.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.api.Json;
import dev.lnp.api.mcp.EntityRef;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The tool-call audit's entities column is written by hand: it must be the JSON the mapper writes for the refs. */
class ToolCallEntitiesJsonTest {

    @Test
    void theRefsAreWrittenAsTheMapperWritesThem() throws Exception {
        List<List<EntityRef>> cases = List.of(
                List.of(),
                List.of(new EntityRef("contact", UUID.randomUUID(), "read")),
                List.of(new EntityRef("deal", null, "created"), new EntityRef(null, UUID.randomUUID(), null),
                        new EntityRef("a \"quoted\" \\ type\n\u00e9\u20ac\uD83D\uDE00\u0001", UUID.randomUUID(),
                                "updated")));
        for (List<EntityRef> refs : cases) {
            String written = ToolCallLog.entitiesJson(refs);
            assertEquals(Json.mapper().writeValueAsString(refs), written, "byte for byte");
            assertEquals(refs, List.of(Json.mapper().readValue(written, EntityRef[].class)), "read back");
        }
    }

    @Test
    void fiftyRefsOfAListCall() throws Exception {
        List<EntityRef> refs = java.util.stream.IntStream.range(0, 50)
                .mapToObj(i -> new EntityRef("contact", UUID.randomUUID(), "read")).toList();
        assertEquals(Json.mapper().writeValueAsString(refs), ToolCallLog.entitiesJson(refs));
    }
}
