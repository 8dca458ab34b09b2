package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.JsonSchemas;
import java.util.HashSet;
import java.util.Set;

/**
 * The JSON Schemas of the CRM, loaded once. Request schemas are shared by the REST route and the MCP tool
 * that do the same thing; where a tool needs a variant (an {@code id}, no required field) it is derived here
 * from the route's schema, so a field rule is written exactly once.
 */
final class CrmSchemas {

    final JsonNode contactCreate = load("contact-create.json");
    final JsonNode contact = load("contact.json");
    final JsonNode contactConversations = load("contact-conversations.json");
    final JsonNode contactList = load("contact-list.json");
    final JsonNode contactSearch = withSearchQuery(contactList, "Contact search", CONTACT_SEARCH_WORDS);
    /** The REST list's query: the list tool's filters plus the optional {@code search} words. */
    final JsonNode contactListQuery = withSearchWords(contactList, "Contact list query", CONTACT_SEARCH_WORDS);
    /** What the application's edit form takes: the tool's changes without the id, which is in the page's path. */
    final ObjectNode contactPatch = optionalFields(contactCreate, "Contact changes");
    final JsonNode contactUpdate = JsonSchemas.withId(contactPatch, "The contact to change");
    final JsonNode dealCreate = load("deal-create.json");
    final ObjectNode dealPatch = optionalFields(dealCreate, "Deal changes");
    final JsonNode dealUpdate = JsonSchemas.withId(dealPatch, "The deal to change");
    final JsonNode deal = load("deal.json");
    final JsonNode dealList = load("deal-list.json");
    final JsonNode companyCreate = load("company-create.json");
    final ObjectNode companyPatch = optionalFields(companyCreate, "Company changes");
    final JsonNode companyUpdate = JsonSchemas.withId(companyPatch, "The company to change");
    final JsonNode company = load("company.json");
    final JsonNode companyList = load("company-list.json");
    final JsonNode companySearch = withSearchQuery(companyList, "Company search", COMPANY_SEARCH_WORDS);
    final JsonNode companyListQuery = withSearchWords(companyList, "Company list query", COMPANY_SEARCH_WORDS);
    final JsonNode id = load("id.json");
    /** The application's deal forms: the fields people fill in, with the API's own rules for each. */
    final ObjectNode dealForm = only(dealCreate, "Deal", "title", "value", "currency", "stage", "status",
            "contact_id", "company_id", "probability", "expected_close_date", "assigned_to", "description", "tags");
    final ObjectNode dealEditForm = optionalFields(dealForm, "Deal changes");
    /** A moved card of the pipeline board: the stage it was dropped on. */
    final JsonNode dealMove = load("deal-move.json");
    final JsonNode deleted = JsonSchemas.deleted();
    final JsonNode contactPage = JsonSchemas.pageOutput(contact);
    final JsonNode dealPage = JsonSchemas.pageOutput(deal);
    final JsonNode companyPage = JsonSchemas.pageOutput(company);

    /** The schema with only {@code fields}, in that order; what stays required stays required. */
    static ObjectNode only(JsonNode schema, String title, String... fields) {
        ObjectNode narrowed = schema.deepCopy();
        narrowed.put("title", title);
        ObjectNode properties = narrowed.putObject("properties");
        var kept = new java.util.LinkedHashSet<>(java.util.List.of(fields));
        for (String field : kept) {
            if (!schema.path("properties").has(field)) throw new IllegalArgumentException("no field " + field);
            properties.set(field, schema.path("properties").get(field));
        }
        var required = narrowed.putArray("required");
        schema.path("required").forEach(name -> {
            if (kept.contains(name.asText())) required.add(name);
        });
        return narrowed;
    }

    private static JsonNode load(String name) {
        return JsonSchemas.load(CrmSchemas.class, name);
    }

    /**
     * The same fields, none required, at least one present: what a PATCH accepts. A field takes {@code null}
     * only where the create schema already does, because the CRM keeps create and update rules identical.
     */
    private static ObjectNode optionalFields(JsonNode createSchema, String title) {
        Set<String> fields = new HashSet<>();
        createSchema.path("properties").fieldNames().forEachRemaining(fields::add);
        return JsonSchemas.patchOf(createSchema, title, fields);
    }

    private static final String CONTACT_SEARCH_WORDS = "Every word must match one of name, email, company name, "
            + "job title or phone; case and accents are ignored";
    private static final String COMPANY_SEARCH_WORDS = "Every word must match one of name, domain, industry, city "
            + "or country; case and accents are ignored";

    private static ObjectNode withSearchQuery(JsonNode listSchema, String title, String description) {
        ObjectNode schema = listSchema.deepCopy();
        schema.put("title", title);
        ((ObjectNode) schema.get("properties")).putObject("query").put("type", "string").put("minLength", 1)
                .put("maxLength", 500).put("description", description);
        schema.putArray("required").add("query");
        return schema;
    }

    private static ObjectNode withSearchWords(JsonNode listSchema, String title, String description) {
        ObjectNode schema = listSchema.deepCopy();
        schema.put("title", title);
        ((ObjectNode) schema.get("properties")).putObject("search").put("type", "string")
                .put("description", description);
        return schema;
    }
}
