package com.example.notes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolCall;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import java.util.Map;
import java.util.UUID;

/**
 * Items per workspace, over REST and as MCP tools. Every write (route or tool) takes one unit of the plugin's
 * monthly quota; the platform counts it and answers 429 once the month's units are used.
 */
public final class NotesPlugin implements PlatformPlugin {

    static final String READ = "notes.read";
    static final String WRITE = "notes.write";
    static final String QUOTA = "notes";
    static final long QUOTA_DEFAULT_MONTHLY = 1_000;

    private final ItemRepository items = new ItemRepository();

    @Override
    public void register(Registrar registrar) {
        // Every schema is a file under src/main/resources/schemas/; the route and the tool share one document.
        JsonNode create = JsonSchemas.load(NotesPlugin.class, "item-create.json");
        JsonNode item = JsonSchemas.load(NotesPlugin.class, "item.json");
        registrar.scope(READ, "Read notes items")
                .scope(WRITE, "Create notes items")
                .quota(QUOTA, QUOTA_DEFAULT_MONTHLY)
                .migrations("notes")
                // Literal segments before {id}-style parameters; one path and method per route.
                .route(RouteSpec.get("/api/v1/notes/items").scope(READ).paginated()
                        .summary("Items of the caller's workspace, oldest first").handler(this::list))
                .route(RouteSpec.post("/api/v1/notes/items").scope(WRITE).body(create).quota(QUOTA)
                        .summary("Create an item").handler(this::create))
                .tool(ToolDescriptor.builder("notes_create_item")
                        .title("Create an item")
                        .description("Creates an item in the caller's workspace.")
                        .scope(WRITE)
                        .quota(QUOTA)
                        .inputSchema(create)
                        .outputSchema(item)
                        .annotations(ToolAnnotations.create())
                        .handler(this::createTool))
                .tool(ToolDescriptor.builder("notes_list_items")
                        .title("List items")
                        .description("Lists the items of the caller's workspace, oldest first, a page at a time.")
                        .scope(READ)
                        .inputSchema(JsonSchemas.pageInput("List items", Json.object()))
                        .outputSchema(JsonSchemas.pageOutput(item))
                        .annotations(ToolAnnotations.read())
                        .handler(this::listTool));
    }

    private ApiResponse list(ApiRequest request) {
        var page = items.list(request.tx(), request.pageRequest());
        return ApiResponse.page(page.items(), Page.of(request.pageRequest(), page.total()));
    }

    private ApiResponse create(ApiRequest request) {
        return ApiResponse.of(items.create(request.tx(), request.body().get("text").asText()));
    }

    private ToolResult createTool(ToolCall call) {
        var created = items.create(call.tx(), call.arguments().get("text").asText());
        return ToolResult.of(created, new EntityRef("item", (UUID) created.get("id"), "created"));
    }

    private ToolResult listTool(ToolCall call) {
        var page = items.list(call.tx(), call.pageRequest());
        return ToolResult.of(Map.of("items", page.items(), "pagination", Page.of(call.pageRequest(), page.total())));
    }
}
