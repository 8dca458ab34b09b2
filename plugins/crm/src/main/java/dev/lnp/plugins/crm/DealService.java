package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Deleted;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.sql.JsonRows;
import dev.lnp.api.http.ApiProblem;
import java.util.UUID;

/**
 * What can be done to deals, for REST handlers and MCP tools alike. Each change and its event are written in
 * the caller's transaction.
 */
final class DealService {

    ObjectNode create(WorkspaceTx tx, Actor actor, JsonNode body) {
        ObjectNode fields = withState(body, DealStates.forCreate(body));
        ObjectNode deal = repository(tx).insert(fields);
        activity(tx).record(actor, Activity.dealCreated(deal));
        tx.events().publish(CrmEvents.DEAL_CREATED, deal);
        return deal;
    }

    ObjectNode get(WorkspaceTx tx, UUID id) {
        return repository(tx).find(id).orElseThrow(DealService::notFound);
    }

    ObjectNode update(WorkspaceTx tx, Actor actor, UUID id, JsonNode patch) {
        DealRepository deals = repository(tx);
        ObjectNode current = deals.findForUpdate(id).orElseThrow(DealService::notFound);
        var state = DealStates.forUpdate(
                new DealStates.State(current.get("status").asText(), current.get("stage").asText()), patch);
        ObjectNode deal = deals.update(id, withState(patch, state));
        activity(tx).record(actor, Activity.dealChanged(current, deal));
        tx.events().publish(CrmEvents.DEAL_UPDATED, deal);
        return deal;
    }

    ObjectNode delete(WorkspaceTx tx, Actor actor, UUID id) {
        ObjectNode deal = repository(tx).delete(id).orElseThrow(DealService::notFound);
        activity(tx).record(actor, Activity.dealDeleted(deal));
        tx.events().publish(CrmEvents.DEAL_DELETED, deal);
        return Deleted.of(id).toJson();
    }

    /** One page of deals, written to the response or tool result straight from the result set. */
    JsonRows list(WorkspaceTx tx, DealFilter filter) {
        return repository(tx).list(filter);
    }

    private static ObjectNode withState(JsonNode body, DealStates.State state) {
        ObjectNode fields = body.deepCopy();
        fields.put("status", state.status());
        fields.put("stage", state.stage());
        return fields;
    }

    private static ApiProblem notFound() {
        return ApiProblem.notFound("Deal");
    }

    private static ActivityRepository activity(WorkspaceTx tx) {
        return new ActivityRepository(tx.handle(), tx.workspaceId());
    }

    private static DealRepository repository(WorkspaceTx tx) {
        return new DealRepository(tx.handle(), tx.workspaceId());
    }
}
