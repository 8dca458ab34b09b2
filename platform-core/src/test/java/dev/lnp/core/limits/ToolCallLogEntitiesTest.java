package dev.lnp.core.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.api.Json;
import dev.lnp.api.mcp.EntityRef;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The audit's entities, written field by field, are the JSON the mapper writes for the same refs. */
class ToolCallLogEntitiesTest {

    @Test
    void entitiesAreTheSameJsonAsTheMappersIncludingEscapesAndAMissingId() throws Exception {
        List<EntityRef> entities = List.of(new EntityRef("contact", UUID.randomUUID(), "read"),
                new EntityRef("odd \"type\"\n", null, "upd\u00e4ted"), new EntityRef("deal", UUID.randomUUID(), null));

        assertEquals(Json.mapper().writeValueAsString(entities), ToolCallLog.entitiesJson(entities));
        assertEquals("[]", ToolCallLog.entitiesJson(List.of()));
    }
}
