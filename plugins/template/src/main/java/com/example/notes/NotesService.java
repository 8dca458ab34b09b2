package com.example.notes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.WorkspaceTx;
import dev.lnp.api.http.Listing;
import dev.lnp.api.http.PageRequest;

/** What can be done to items, for the REST routes and the MCP tools alike, in the caller's transaction. */
final class NotesService {

    private final NotesRepository items = new NotesRepository();

    Listing<ObjectNode> list(WorkspaceTx tx, PageRequest page) {
        return items.list(tx, page);
    }

    /** The body has passed item-create.json already. */
    ObjectNode create(WorkspaceTx tx, JsonNode body) {
        return items.create(tx, body.get("text").asText());
    }
}
