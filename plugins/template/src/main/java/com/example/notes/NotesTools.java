package com.example.notes;

import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import java.util.List;
import java.util.UUID;

/** The MCP tools; they run the same {@link NotesService} as the routes, with the same schemas. */
record NotesTools(NotesService items, NotesSchemas schemas) {

    List<ToolDescriptor> tools() {
        return List.of(
                ToolDescriptor.builder("notes_create_item")
                        .title("Create an item")
                        .description("Creates an item in the caller's workspace.")
                        .scope(NotesScopes.WRITE)
                        .quota(NotesScopes.QUOTA)
                        .inputSchema(schemas.itemCreate)
                        .outputSchema(schemas.item)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> {
                            var created = items.create(call.tx(), call.arguments());
                            return ToolResult.of(created,
                                    new EntityRef("item", UUID.fromString(created.get("id").asText()), "created"));
                        }),
                ToolDescriptor.builder("notes_list_items")
                        .title("List items")
                        .description("Lists the items of the caller's workspace, oldest first, a page at a time.")
                        .scope(NotesScopes.READ)
                        .inputSchema(schemas.itemList)
                        .outputSchema(schemas.itemPage)
                        .annotations(ToolAnnotations.read())
                        .handler(call -> ToolResult.listed(items.list(call.tx(), call.pageRequest()))));
    }
}
