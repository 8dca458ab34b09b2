package dev.lnp.plugins.crm;

import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.RouteSpec;
import java.util.List;

/** The company routes: the same five as deals, every answer in the {@code {data}} envelope. */
final class CompanyRoutes {

    private final CompanyService companies;
    private final CrmSchemas schemas;

    CompanyRoutes(CompanyService companies, CrmSchemas schemas) {
        this.companies = companies;
        this.schemas = schemas;
    }

    List<RouteSpec> routes() {
        return List.of(
                RouteSpec.get("/api/v1/crm/companies").scope(CrmScopes.COMPANIES_READ).paginated()
                        .query(QueryParam.fromSchema(schemas.companyListQuery).toArray(QueryParam[]::new))
                        .returns(schemas.company).summary("List companies, newest first").handler(this::list),
                RouteSpec.post("/api/v1/crm/companies").scope(CrmScopes.COMPANIES_WRITE).body(schemas.companyCreate)
                        .quota(CrmScopes.QUOTA).returns(schemas.company).summary("Create a company").handler(this::create),
                RouteSpec.get("/api/v1/crm/companies/{id}").scope(CrmScopes.COMPANIES_READ)
                        .returns(schemas.company).summary("One company").handler(this::get),
                RouteSpec.patch("/api/v1/crm/companies/{id}").scope(CrmScopes.COMPANIES_WRITE)
                        .body(schemas.companyPatch).quota(CrmScopes.QUOTA).returns(schemas.company)
                        .summary("Change some fields of a company").handler(this::update),
                RouteSpec.delete("/api/v1/crm/companies/{id}").scope(CrmScopes.COMPANIES_WRITE)
                        .quota(CrmScopes.QUOTA).returns(schemas.deleted)
                        .summary("Delete a company; its contacts and deals stay, without the company")
                        .handler(this::delete));
    }

    private ApiResponse list(ApiRequest request) {
        var query = new CompanyQuery(SearchWords.of(request.query("search").orElse(null), "?search"),
                request.pageRequest());
        return companies.list(request.tx(), query).response();
    }

    private ApiResponse create(ApiRequest request) {
        return ApiResponse.of(companies.create(request.tx(), actor(request), request.body()));
    }

    private ApiResponse get(ApiRequest request) {
        return ApiResponse.of(companies.get(request.tx(), request.pathId("id")));
    }

    private ApiResponse update(ApiRequest request) {
        return ApiResponse.of(companies.update(request.tx(), actor(request), request.pathId("id"), request.body()));
    }

    private ApiResponse delete(ApiRequest request) {
        return ApiResponse.of(companies.delete(request.tx(), request.pathId("id")));
    }

    /** Every CRM route needs a key, so there is always a principal: the connection or the member it acts for. */
    private static Actor actor(ApiRequest request) {
        return Actor.of(request.principal().orElseThrow());
    }
}
