package com.example.notes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageSearch;
import dev.lnp.api.pages.SearchHit;
import dev.lnp.api.http.Listing;
import java.util.List;
import java.util.UUID;

/**
 * The pages people use in the workspace application, in matching order: path, scope and handler together, as
 * {@link NotesRoutes} declares the API. Pages call the same {@link NotesService} as the routes and the tools, and
 * the edit form is checked against the API's own {@code item-update.json}.
 */
record NotesPages(NotesService items, NotesSchemas schemas) {

    private static final String LIST = "/app/notes/items";

    /** What the application's search box finds here: items by their text, each linking to its page. */
    PageSearch search() {
        return new PageSearch("Notes", NotesScopes.READ, (call, text, limit) ->
                items.search(call.tx(), text, limit).stream()
                        .map(item -> new SearchHit(item.path("text").asText(), item.path("created_at").asText(),
                                LIST + "/" + item.path("id").asText()))
                        .toList());
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(LIST).scope(NotesScopes.READ).nav("Notes", "Items")
                        .renderer(call -> {
                            Listing<ObjectNode> page = items.list(call.tx(), call.page());
                            return ListView.of("Items", List.of(
                                            Column.of("Text", "text").linkedTo(LIST + "/{id}"),
                                            Column.of("Created", "created_at")),
                                            page.items(), page.page().hasMore())
                                    .emptyText("No items yet.");
                        }),
                PageRoute.view(LIST + "/{id}").scope(NotesScopes.READ)
                        .renderer(call -> {
                            UUID id = call.pathId("id");
                            ObjectNode item = items.find(call.tx(), id);
                            DetailView view = DetailView.of(item.path("text").asText(), List.of(
                                    new Field("Text", item.path("text").asText()),
                                    new Field("Created", item.path("created_at").asText())));
                            return call.may(NotesScopes.WRITE)
                                    ? view.actions(Link.to("Edit", LIST + "/" + id + "/edit")) : view;
                        }),
                PageRoute.view(LIST + "/{id}/edit").scope(NotesScopes.WRITE)
                        .renderer(call -> {
                            UUID id = call.pathId("id");
                            ObjectNode item = items.find(call.tx(), id);
                            ObjectNode values = item.objectNode().put("text", item.path("text").asText());
                            return new FormView("Edit item", schemas.itemUpdate, values, "Save", LIST + "/" + id);
                        }),
                PageRoute.action(LIST + "/{id}/edit").scope(NotesScopes.WRITE).form(schemas.itemUpdate)
                        .action((call, values) -> {
                            UUID id = call.pathId("id");
                            items.update(call.tx(), id, values);
                            return PageOutcome.goTo(LIST + "/" + id, "Item saved.");
                        }));
    }
}
