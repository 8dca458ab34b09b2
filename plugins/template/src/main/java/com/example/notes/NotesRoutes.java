package com.example.notes;

import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.RouteSpec;
import java.util.List;

/** The REST routes, in matching order (literal segments before {id}-style parameters). */
record NotesRoutes(NotesService items, NotesSchemas schemas) {

    List<RouteSpec> routes() {
        return List.of(
                RouteSpec.get("/api/v1/notes/items").scope(NotesScopes.READ).paginated()
                        .summary("Items of the caller's workspace, oldest first")
                        .handler(r -> items.list(r.tx(), r.pageRequest()).response()),
                RouteSpec.post("/api/v1/notes/items").scope(NotesScopes.WRITE).body(schemas.itemCreate)
                        .quota(NotesScopes.QUOTA).summary("Create an item")
                        .handler(r -> ApiResponse.of(items.create(r.tx(), r.body()))),
                RouteSpec.get("/api/v1/notes/items/{id}").scope(NotesScopes.READ).summary("One item")
                        .handler(r -> ApiResponse.of(items.find(r.tx(), r.pathId("id")))),
                RouteSpec.patch("/api/v1/notes/items/{id}").scope(NotesScopes.WRITE).body(schemas.itemUpdate)
                        .quota(NotesScopes.QUOTA).summary("Change an item's text")
                        .handler(r -> ApiResponse.of(items.update(r.tx(), r.pathId("id"), r.body()))));
    }
}
