package dev.lnp.plugins.crm;

import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.RouteSpec;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

/** The deal routes of the contract. Every answer uses the {@code {data}} envelope. */
final class DealRoutes {

    private final DealService deals;
    private final CrmSchemas schemas;

    DealRoutes(DealService deals, CrmSchemas schemas) {
        this.deals = deals;
        this.schemas = schemas;
    }

    List<RouteSpec> routes() {
        return List.of(
                RouteSpec.get("/api/v1/crm/deals").scope(CrmScopes.DEALS_READ).paginated()
                        .query(QueryParam.fromSchema(schemas.dealList).toArray(QueryParam[]::new))
                        .returns(schemas.deal).summary("List deals, newest first").handler(this::list),
                RouteSpec.post("/api/v1/crm/deals").scope(CrmScopes.DEALS_WRITE).body(schemas.dealCreate)
                        .quota(CrmScopes.QUOTA).returns(schemas.deal).summary("Create a deal").handler(this::create),
                RouteSpec.get("/api/v1/crm/deals/{id}").scope(CrmScopes.DEALS_READ)
                        .returns(schemas.deal).summary("One deal").handler(this::get),
                RouteSpec.patch("/api/v1/crm/deals/{id}").scope(CrmScopes.DEALS_WRITE).body(schemas.dealPatch)
                        .quota(CrmScopes.QUOTA).returns(schemas.deal).summary("Change some fields of a deal").handler(this::update),
                RouteSpec.delete("/api/v1/crm/deals/{id}").scope(CrmScopes.DEALS_WRITE)
                        .quota(CrmScopes.QUOTA).returns(schemas.deleted).summary("Delete a deal").handler(this::delete));
    }

    private ApiResponse list(ApiRequest request) {
        var filter = new DealFilter(SearchWords.of(request.query("search").orElse(null), "?search"),
                request.queryAll("status"), request.queryAll("stage"),
                request.queryAll("assignee").stream().map(UUID::fromString).toList(),
                request.query("contact_id").map(UUID::fromString).orElse(null),
                request.query("company_id").map(UUID::fromString).orElse(null),
                request.query("value_min").map(BigDecimal::new).orElse(null),
                request.query("value_max").map(BigDecimal::new).orElse(null),
                request.pageRequest());
        return deals.list(request.tx(), filter).response();
    }

    private ApiResponse create(ApiRequest request) {
        return ApiResponse.of(deals.create(request.tx(), actor(request), request.body()));
    }

    private ApiResponse get(ApiRequest request) {
        return ApiResponse.of(deals.get(request.tx(), request.pathId("id")));
    }

    private ApiResponse update(ApiRequest request) {
        return ApiResponse.of(deals.update(request.tx(), actor(request), request.pathId("id"), request.body()));
    }

    private ApiResponse delete(ApiRequest request) {
        return ApiResponse.of(deals.delete(request.tx(), actor(request), request.pathId("id")));
    }

    /** Every CRM route needs a key, so there is always a principal: the connection or the member it acts for. */
    private static Actor actor(ApiRequest request) {
        return Actor.of(request.principal().orElseThrow());
    }
}
