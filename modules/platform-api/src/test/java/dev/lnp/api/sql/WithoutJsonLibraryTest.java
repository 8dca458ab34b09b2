package dev.lnp.api.sql;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.lnp.api.JsonSchemas;
import org.junit.jupiter.api.Test;

/**
 * The API alone implements neither rows nor schema derivations: without the platform's JSON library on the class path
 * (as here) the first use says which implementation is missing and who provides it, instead of failing on a null.
 */
class WithoutJsonLibraryTest {

    @Test
    void aColumnNamesTheMissingRowCodec() {
        var error = assertThrows(ExceptionInInitializerError.class, () -> Column.text("name").fromJson(TextNode.valueOf("x")));
        assertTrue(error.getCause().getMessage().contains(RowCodec.class.getName()), error.getCause().getMessage());
        assertTrue(error.getCause().getMessage().contains("lnp.platform.json, provides it"), error.getCause().getMessage());
    }

    @Test
    void aSchemaDerivationNamesTheMissingRules() {
        var error = assertThrows(ExceptionInInitializerError.class, JsonSchemas::deleted);
        assertTrue(error.getCause().getMessage().contains("JsonSchemaRules"), error.getCause().getMessage());
        assertTrue(error.getCause().getMessage().contains("lnp.platform.json, provides it"), error.getCause().getMessage());
    }
}
