package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Deleted;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.sql.JsonRows;
import java.util.UUID;

/**
 * What can be done to companies, for REST handlers and MCP tools alike. Each change and its event are written
 * in the caller's transaction.
 */
final class CompanyService {

    ObjectNode create(WorkspaceTx tx, Actor actor, JsonNode fields) {
        ObjectNode company = repository(tx).insert(fields);
        activity(tx).record(actor, Activity.companyCreated(company));
        tx.events().publish(CrmEvents.COMPANY_CREATED, company);
        return company;
    }

    ObjectNode get(WorkspaceTx tx, UUID id) {
        return repository(tx).find(id).orElseThrow(CompanyService::notFound);
    }

    ObjectNode update(WorkspaceTx tx, Actor actor, UUID id, JsonNode fields) {
        CompanyRepository companies = repository(tx);
        ObjectNode before = companies.findForUpdate(id).orElseThrow(CompanyService::notFound);
        ObjectNode company = companies.update(id, fields).orElseThrow(CompanyService::notFound);
        activity(tx).record(actor, Activity.companyChanged(before, company));
        tx.events().publish(CrmEvents.COMPANY_UPDATED, company);
        return company;
    }

    /**
     * Deletes the company; its contacts and deals stay and lose only their company_id, without an event of their
     * own (as a deleted contact's deals lose their contact_id): the company's deleted event tells receivers.
     */
    ObjectNode delete(WorkspaceTx tx, UUID id) {
        ObjectNode company = repository(tx).delete(id).orElseThrow(CompanyService::notFound);
        activity(tx).forget("company", id);
        tx.events().publish(CrmEvents.COMPANY_DELETED, company);
        return Deleted.of(id).toJson();
    }

    /** One page of companies, written to the response or tool result straight from the result set. */
    JsonRows list(WorkspaceTx tx, CompanyQuery query) {
        return repository(tx).list(query);
    }

    private static ApiProblem notFound() {
        return ApiProblem.notFound("Company");
    }

    private static ActivityRepository activity(WorkspaceTx tx) {
        return new ActivityRepository(tx.handle(), tx.workspaceId());
    }

    private static CompanyRepository repository(WorkspaceTx tx) {
        return new CompanyRepository(tx.handle(), tx.workspaceId());
    }
}
