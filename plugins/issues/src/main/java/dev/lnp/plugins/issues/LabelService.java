package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.Listing;
import dev.lnp.api.http.PageRequest;
import java.util.Map;

/** Workspace labels, attached to tasks and tickets through bulk update (add_labels, remove_labels). */
final class LabelService {

    private final LabelRepository labels;

    LabelService(LabelRepository labels) {
        this.labels = labels;
    }

    Listing<ObjectNode> list(WorkspaceTx tx, PageRequest page) {
        long total = labels.count(tx.handle(), tx.workspaceId());
        return Listing.of(labels.list(tx.handle(), tx.workspaceId(), page.limit(), page.offset()), page, total);
    }

    ObjectNode create(WorkspaceTx tx, JsonNode body) {
        String name = body.get("name").asText();
        String color = body.hasNonNull("color") ? body.get("color").asText() : null;
        return labels.insert(tx.handle(), tx.workspaceId(), name, color).orElseThrow(() -> ApiProblem.conflict(
                "label_exists", "This workspace already has a label named " + name + " (names ignore letter case)."));
    }
}
