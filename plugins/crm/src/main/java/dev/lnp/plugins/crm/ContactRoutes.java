package dev.lnp.plugins.crm;

import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.ResponseShape;
import dev.lnp.api.http.RouteSpec;
import java.util.List;

/**
 * The contact routes of the contract: list and create. There is deliberately no {@code /contacts/{id}}:
 * contacts are changed and deleted through MCP tools only.
 */
final class ContactRoutes {

    private final ContactService contacts;
    private final CrmSchemas schemas;

    ContactRoutes(ContactService contacts, CrmSchemas schemas) {
        this.contacts = contacts;
        this.schemas = schemas;
    }

    List<RouteSpec> routes() {
        return List.of(
                RouteSpec.get("/api/v1/crm/contacts").scope(CrmScopes.CONTACTS_READ).paginated()
                        .query(QueryParam.fromSchema(schemas.contactListQuery).toArray(QueryParam[]::new))
                        .returns(schemas.contact).summary("List contacts, newest first").handler(this::list),
                RouteSpec.post("/api/v1/crm/contacts").scope(CrmScopes.CONTACTS_WRITE).body(schemas.contactCreate)
                        .shape(ResponseShape.DIRECT).quota(CrmScopes.QUOTA).returns(schemas.contact)
                        .summary("Create a contact; answers the contact itself, not wrapped").handler(this::create),
                RouteSpec.get("/api/v1/crm/contacts/{id}/conversations").scope(CrmScopes.CONTACTS_READ)
                        .returns(schemas.contactConversations)
                        .summary("The conversations other modules linked to a contact (a verified chat visitor's "
                                + "chats), newest first").handler(this::conversations));
    }

    private ApiResponse conversations(ApiRequest request) {
        java.util.UUID id = request.pathId("id");
        contacts.get(request.tx(), id);
        return ApiResponse.of(ContactConversations.of(request.tx().handle(), request.tx().workspaceId(), id, 200));
    }

    private ApiResponse list(ApiRequest request) {
        var query = new ContactQuery(SearchWords.of(request.query("search").orElse(null), "?search"),
                request.queryAll("status"), request.pageRequest());
        return contacts.list(request.tx(), query).response();
    }

    private ApiResponse create(ApiRequest request) {
        return ApiResponse.of(contacts.create(request.tx(), actor(request), request.body()));
    }

    /** Every CRM route needs a key, so there is always a principal: the connection or the member it acts for. */
    private static Actor actor(ApiRequest request) {
        return Actor.of(request.principal().orElseThrow());
    }
}
