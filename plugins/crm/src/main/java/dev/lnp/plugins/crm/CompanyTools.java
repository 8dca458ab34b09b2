package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolCall;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import java.util.List;
import java.util.UUID;

/**
 * The company tools of the MCP catalog; they run the same {@link CompanyService} as the REST routes. A company
 * is deleted over REST only: deleting one detaches every contact and deal it has, more than an assistant should
 * do in one call.
 */
final class CompanyTools {

    private final CompanyService companies;
    private final CrmSchemas schemas;

    CompanyTools(CompanyService companies, CrmSchemas schemas) {
        this.companies = companies;
        this.schemas = schemas;
    }

    List<ToolDescriptor> tools() {
        return List.of(
                ToolDescriptor.builder("crm_list_companies")
                        .title("List companies")
                        .description("Lists the workspace's companies, newest first.")
                        .scope(CrmScopes.COMPANIES_READ)
                        .inputSchema(schemas.companyList)
                        .outputSchema(schemas.companyPage)
                        .annotations(ToolAnnotations.read())
                        .handler(this::list),
                ToolDescriptor.builder("crm_search_companies")
                        .title("Search companies")
                        .description("Finds companies whose name, domain, industry, city or country contain every word "
                                + "of the query, ignoring case and accents.")
                        .scope(CrmScopes.COMPANIES_READ)
                        .inputSchema(schemas.companySearch)
                        .outputSchema(schemas.companyPage)
                        .annotations(ToolAnnotations.read())
                        .handler(this::search),
                ToolDescriptor.builder("crm_get_company")
                        .title("Get a company")
                        .description("Reads one company by id.")
                        .scope(CrmScopes.COMPANIES_READ)
                        .inputSchema(schemas.id)
                        .outputSchema(schemas.company)
                        .annotations(ToolAnnotations.read())
                        .handler(this::get),
                ToolDescriptor.builder("crm_create_company")
                        .title("Create a company")
                        .description("Creates a company; name is required, a domain is unique in the workspace.")
                        .scope(CrmScopes.COMPANIES_WRITE)
                        .inputSchema(schemas.companyCreate)
                        .outputSchema(schemas.company)
                        .annotations(ToolAnnotations.create())
                        .quota(CrmScopes.QUOTA)
                        .handler(this::create),
                ToolDescriptor.builder("crm_update_company")
                        .title("Update a company")
                        .description("Changes the given fields of the company with this id; other fields stay as they are.")
                        .scope(CrmScopes.COMPANIES_WRITE)
                        .inputSchema(schemas.companyUpdate)
                        .outputSchema(schemas.company)
                        .annotations(ToolAnnotations.update())
                        .quota(CrmScopes.QUOTA)
                        .handler(this::update));
    }

    private ToolResult list(ToolCall call) {
        return companies.list(call.tx(), new CompanyQuery(List.of(), call.pageRequest())).toolResult("company");
    }

    private ToolResult search(ToolCall call) {
        var query = new CompanyQuery(SearchWords.of(call.arguments().get("query").asText(), "/query"),
                call.pageRequest());
        return companies.list(call.tx(), query).toolResult("company");
    }

    private ToolResult get(ToolCall call) {
        return result(companies.get(call.tx(), call.id()), "read");
    }

    private ToolResult create(ToolCall call) {
        return result(companies.create(call.tx(), Actor.of(call.principal()), call.arguments()), "created");
    }

    private ToolResult update(ToolCall call) {
        return result(companies.update(call.tx(), Actor.of(call.principal()), call.id(), call.argumentsWithoutId()), "updated");
    }

    private static ToolResult result(ObjectNode company, String action) {
        return ToolResult.of(company, new EntityRef("company", UUID.fromString(company.get("id").asText()), action));
    }
}
