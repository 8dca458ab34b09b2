package com.example.hello;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.RouteSpec;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

/** Greets, and keeps the names it greeted, per workspace. */
public final class HelloPlugin implements PlatformPlugin {

    @Override
    public void register(Registrar registrar) {
        JsonNode createSchema = Json.resource(HelloPlugin.class, "schemas/greeting-create.json");
        registrar.scope("hello.read", "Read greetings")
                .scope("hello.write", "Create greetings")
                .migrations("hello")
                .route(RouteSpec.get("/api/v1/hello").scope("hello.read")
                        .summary("A greeting for the caller's workspace").handler(this::hello))
                .route(RouteSpec.get("/api/v1/hello/greetings").scope("hello.read").paginated()
                        .summary("Names greeted so far").handler(this::list))
                .route(RouteSpec.post("/api/v1/hello/greetings").scope("hello.write").body(createSchema)
                        .summary("Greet someone").handler(this::create));
    }

    private ApiResponse hello(ApiRequest request) {
        return ApiResponse.of(Map.of("message", "Hello from the hello plugin", "workspace_id", request.workspaceId()));
    }

    private ApiResponse list(ApiRequest request) {
        var handle = request.tx().handle();
        long total = handle.createQuery("SELECT count(*) FROM hello.greetings WHERE workspace_id = :ws")
                .bind("ws", request.workspaceId()).mapTo(Long.class).one();
        var items = handle.createQuery("""
                        SELECT id, name, created_at FROM hello.greetings WHERE workspace_id = :ws
                         ORDER BY created_at, id LIMIT :limit OFFSET :offset
                        """)
                .bind("ws", request.workspaceId())
                .bind("limit", request.pageRequest().limit())
                .bind("offset", request.pageRequest().offset())
                .map((rs, ctx) -> Map.of("id", rs.getObject("id", UUID.class), "name", rs.getString("name"),
                        "created_at", rs.getObject("created_at", OffsetDateTime.class)))
                .list();
        return ApiResponse.page(items, Page.of(request.pageRequest(), total));
    }

    private ApiResponse create(ApiRequest request) {
        String name = request.body().get("name").asText();
        var row = request.tx().handle().createQuery("""
                        INSERT INTO hello.greetings (workspace_id, name) VALUES (:ws, :name)
                        RETURNING id, created_at
                        """)
                .bind("ws", request.workspaceId())
                .bind("name", name)
                .map((rs, ctx) -> Map.of("id", rs.getObject("id", UUID.class), "name", name,
                        "message", "Hello, " + name + "!",
                        "created_at", rs.getObject("created_at", OffsetDateTime.class)))
                .one();
        return ApiResponse.of(row);
    }
}
