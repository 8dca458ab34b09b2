package dev.lnp.json.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What {@code platform routes --verbose} shows as a route's schema: the file, or how it was derived from one. */
class JsonSourceTest {

    @Test
    void aLoadedSchemaKnowsItsFileAndAPatchKnowsWhatItWasDerivedFrom() {
        var create = JsonSchemas.load(JsonSourceTest.class, "sample-create.json");
        assertEquals(Optional.of("schemas/sample-create.json"), Json.sourceOf(create));
        var patch = JsonSchemas.patchOf(create, "Change a sample", Set.of());
        assertEquals(Optional.of("patch of schemas/sample-create.json"), Json.sourceOf(patch));
    }

    @Test
    void aSchemaBuiltInCodeHasNoSourceEvenWhenItEqualsALoadedOne() {
        var loaded = JsonSchemas.load(JsonSourceTest.class, "sample-create.json");
        var sameContent = loaded.deepCopy();
        assertEquals(loaded, sameContent);
        assertEquals(Optional.empty(), Json.sourceOf(sameContent));
        assertEquals(Optional.empty(), Json.sourceOf(Json.parse("{\"type\":\"object\"}")));
        assertEquals(Optional.empty(), Json.sourceOf(null));
    }
}
