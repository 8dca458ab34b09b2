package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;

/**
 * The JSON Schemas of the CRM, loaded once. Request schemas are shared by the REST route and the MCP tool
 * that do the same thing; where a tool needs a variant (an {@code id}, no required field) it is derived here
 * from the route's schema, so a field rule is written exactly once.
 */
final class CrmSchemas {

    final JsonNode contactCreate = load("contact-create.json");
    final JsonNode contact = load("contact.json");
    final JsonNode contactList = load("contact-list.json");
    final JsonNode contactSearch = withSearchQuery(contactList);
    final JsonNode contactUpdate = withId(optionalFields(contactCreate), "Contact changes");
    final JsonNode dealCreate = load("deal-create.json");
    final ObjectNode dealPatch = optionalFields(dealCreate);
    final JsonNode dealUpdate = withId(dealPatch, "Deal changes");
    final JsonNode deal = load("deal.json");
    final JsonNode dealList = load("deal-list.json");
    final JsonNode id = load("id.json");
    final JsonNode deleted = load("deleted.json");
    final JsonNode contactPage = page(contact);
    final JsonNode dealPage = page(deal);

    private static JsonNode load(String name) {
        return Json.resource(CrmSchemas.class, "schemas/" + name);
    }

    /** The same fields, none required, at least one present: what a PATCH accepts. */
    private static ObjectNode optionalFields(JsonNode createSchema) {
        ObjectNode schema = createSchema.deepCopy();
        schema.remove("required");
        schema.put("minProperties", 1);
        return schema;
    }

    /** A PATCH body plus the id of the row, for tools that carry both in their arguments. */
    private static ObjectNode withId(ObjectNode patchSchema, String title) {
        ObjectNode schema = patchSchema.deepCopy();
        schema.put("title", title);
        ObjectNode properties = Json.object();
        properties.putObject("id").put("type", "string").put("format", "uuid");
        properties.setAll((ObjectNode) schema.get("properties"));
        schema.set("properties", properties);
        schema.putArray("required").add("id");
        schema.put("minProperties", 2);
        return schema;
    }

    private static ObjectNode withSearchQuery(JsonNode listSchema) {
        ObjectNode schema = listSchema.deepCopy();
        schema.put("title", "Contact search");
        ((ObjectNode) schema.get("properties")).putObject("query").put("type", "string").put("minLength", 1)
                .put("maxLength", 500).put("description", "Every word must match one of name, email, company "
                        + "name, job title or phone; case and accents are ignored");
        schema.putArray("required").add("query");
        return schema;
    }

    /** The output of a list tool: the page's items and the same pagination object the REST envelope has. */
    private static JsonNode page(JsonNode item) {
        ObjectNode schema = Json.object();
        schema.put("type", "object");
        schema.putArray("required").add("items").add("pagination");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("items").put("type", "array").set("items", item);
        ObjectNode pagination = properties.putObject("pagination");
        pagination.put("type", "object");
        ObjectNode fields = pagination.putObject("properties");
        fields.putObject("page").put("type", "integer");
        fields.putObject("limit").put("type", "integer");
        fields.putObject("total").put("type", "integer");
        fields.putObject("hasMore").put("type", "boolean");
        return schema;
    }
}
