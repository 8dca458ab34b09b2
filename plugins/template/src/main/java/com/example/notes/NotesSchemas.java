package com.example.notes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;

/** Every schema of the plugin: files under src/main/resources/schemas/, or derived from them by JsonSchemas. */
final class NotesSchemas {

    final JsonNode itemCreate = JsonSchemas.load(NotesSchemas.class, "item-create.json");
    final JsonNode itemUpdate = JsonSchemas.load(NotesSchemas.class, "item-update.json");
    final JsonNode item = JsonSchemas.load(NotesSchemas.class, "item.json");
    final JsonNode itemList = JsonSchemas.pageInput("List items", Json.object());
    final JsonNode itemPage = JsonSchemas.pageOutput(item);
}
