package com.example.notes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.Listing;
import dev.lnp.api.http.PageRequest;
import java.util.List;
import java.util.UUID;

/** What can be done to items, for the REST routes and the MCP tools alike, in the caller's transaction. */
final class NotesService {

    private final NotesRepository items = new NotesRepository();

    Listing<ObjectNode> list(WorkspaceTx tx, PageRequest page) {
        return items.list(tx, page);
    }

    /** The search box's items: a few whose text contains what was typed. */
    List<ObjectNode> search(WorkspaceTx tx, String text, int limit) {
        return items.search(tx, text, limit);
    }

    /** The item, or a 404 problem: an id of another workspace answers as a missing one. */
    ObjectNode find(WorkspaceTx tx, UUID id) {
        return items.find(tx, id).orElseThrow(() -> ApiProblem.notFound("The item"));
    }

    /** The body has passed item-update.json already. */
    ObjectNode update(WorkspaceTx tx, UUID id, JsonNode body) {
        return items.update(tx, id, body.get("text").asText()).orElseThrow(() -> ApiProblem.notFound("The item"));
    }

    /** The body has passed item-create.json already. */
    ObjectNode create(WorkspaceTx tx, JsonNode body) {
        return items.create(tx, body.get("text").asText());
    }
}
