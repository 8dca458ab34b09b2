package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolCall;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import java.util.List;
import java.util.UUID;

/** The deal tools of the MCP catalog; they run the same {@link DealService} as the REST routes. */
final class DealTools {

    private final DealService deals;
    private final CrmSchemas schemas;

    DealTools(DealService deals, CrmSchemas schemas) {
        this.deals = deals;
        this.schemas = schemas;
    }

    List<ToolDescriptor> tools() {
        return List.of(
                ToolDescriptor.builder("crm_list_deals")
                        .title("List deals")
                        .description("Lists the workspace's deals, newest first, with the same filters as the REST list; "
                                + "search finds deals by words of their title.")
                        .scope(CrmScopes.DEALS_READ)
                        .inputSchema(schemas.dealList)
                        .outputSchema(schemas.dealPage)
                        .annotations(ToolAnnotations.read())
                        .handler(this::list),
                ToolDescriptor.builder("crm_get_deal")
                        .title("Get a deal")
                        .description("Reads one deal by id.")
                        .scope(CrmScopes.DEALS_READ)
                        .inputSchema(schemas.id)
                        .outputSchema(schemas.deal)
                        .annotations(ToolAnnotations.read())
                        .handler(this::get),
                ToolDescriptor.builder("crm_create_deal")
                        .title("Create a deal")
                        .description("Creates a deal; title is required. A closed stage and a closed status go together.")
                        .scope(CrmScopes.DEALS_WRITE)
                        .inputSchema(schemas.dealCreate)
                        .outputSchema(schemas.deal)
                        .annotations(ToolAnnotations.create())
                        .quota(CrmScopes.QUOTA)
                        .handler(this::create),
                ToolDescriptor.builder("crm_update_deal")
                        .title("Update a deal")
                        .description("Changes the given fields of the deal with this id. A closed deal reopens only with status "
                                + "open and an open stage.")
                        .scope(CrmScopes.DEALS_WRITE)
                        .inputSchema(schemas.dealUpdate)
                        .outputSchema(schemas.deal)
                        .annotations(ToolAnnotations.update())
                        .quota(CrmScopes.QUOTA)
                        .handler(this::update),
                ToolDescriptor.builder("crm_delete_deal")
                        .title("Delete a deal")
                        .description("Deletes the deal with this id for good.")
                        .scope(CrmScopes.DEALS_WRITE)
                        .inputSchema(schemas.id)
                        .outputSchema(schemas.deleted)
                        .annotations(ToolAnnotations.delete())
                        .quota(CrmScopes.QUOTA)
                        .handler(this::delete));
    }

    private ToolResult list(ToolCall call) {
        JsonNode args = call.arguments();
        var filter = new DealFilter(SearchWords.of(call.text("search").orElse(null), "/search"), call.strings("status"),
                call.strings("stage"),
                call.strings("assignee").stream().map(UUID::fromString).toList(),
                args.hasNonNull("contact_id") ? UUID.fromString(args.get("contact_id").asText()) : null,
                args.hasNonNull("company_id") ? UUID.fromString(args.get("company_id").asText()) : null,
                args.hasNonNull("value_min") ? args.get("value_min").decimalValue() : null,
                args.hasNonNull("value_max") ? args.get("value_max").decimalValue() : null,
                call.pageRequest());
        return deals.list(call.tx(), filter).toolResult("deal");
    }

    private ToolResult get(ToolCall call) {
        return result(deals.get(call.tx(), call.id()), "read");
    }

    private ToolResult create(ToolCall call) {
        return result(deals.create(call.tx(), Actor.of(call.principal()), call.arguments()), "created");
    }

    private ToolResult update(ToolCall call) {
        return result(deals.update(call.tx(), Actor.of(call.principal()), call.id(), call.argumentsWithoutId()), "updated");
    }

    private ToolResult delete(ToolCall call) {
        UUID id = call.id();
        return ToolResult.of(deals.delete(call.tx(), Actor.of(call.principal()), id), new EntityRef("deal", id, "deleted"));
    }

    private static ToolResult result(ObjectNode deal, String action) {
        return ToolResult.of(deal, new EntityRef("deal", UUID.fromString(deal.get("id").asText()), action));
    }
}
