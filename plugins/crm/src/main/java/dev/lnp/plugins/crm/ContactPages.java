package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.pages.FormChanges;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.Filter;
import dev.lnp.api.pages.Filter.Choice;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageSearch;
import dev.lnp.api.pages.PageView;
import dev.lnp.api.pages.SearchHit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The contacts of the workspace application: the list (search, status, type and tag filters, three orders), a
 * contact's page with its deals, and the forms that create, change and delete one. They call the same
 * {@link ContactService} as the API and the MCP tools, so a change made here is validated by the same schema,
 * audited and announced by the same event.
 */
final class ContactPages {

    static final String LIST = "/app/crm/contacts";

    private final ContactService contacts;
    private final CrmSchemas schemas;

    ContactPages(ContactService contacts, CrmSchemas schemas) {
        this.contacts = contacts;
        this.schemas = schemas;
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(LIST).scope(CrmScopes.CONTACTS_READ).nav("CRM", "Contacts")
                        .liveOn("crm.contact.*").renderer(this::list),
                PageRoute.view(LIST + "/new").scope(CrmScopes.CONTACTS_WRITE).renderer(call -> CrmChoices.contactForm(
                        call, new FormView("New contact", schemas.contactCreate, Json.object(), "Create contact", LIST))),
                PageRoute.action(LIST + "/new").scope(CrmScopes.CONTACTS_WRITE).form(schemas.contactCreate)
                        .action((call, values) -> {
                            ObjectNode created = contacts.create(call.tx(), Actor.member(call.userId()), values);
                            return PageOutcome.goTo(LIST + "/" + created.get("id").asText(),
                                    "Contact " + name(created) + " created.");
                        }),
                PageRoute.view(LIST + "/{id}").scope(CrmScopes.CONTACTS_READ).renderer(this::detail),
                PageRoute.view(LIST + "/{id}/edit").scope(CrmScopes.CONTACTS_WRITE).renderer(call -> {
                    UUID id = call.pathId("id");
                    return CrmChoices.contactForm(call, new FormView("Edit " + name(find(call, id)),
                            schemas.contactPatch, FormChanges.editable(find(call, id), schemas.contactPatch), "Save",
                            LIST + "/" + id));
                }),
                PageRoute.action(LIST + "/{id}/edit").scope(CrmScopes.CONTACTS_WRITE).form(schemas.contactPatch)
                        .action((call, values) -> {
                            UUID id = call.pathId("id");
                            ObjectNode before = find(call, id);
                            ObjectNode changes = FormChanges.changes(before, values, schemas.contactPatch);
                            if (changes.isEmpty()) return PageOutcome.goTo(LIST + "/" + id, "Nothing was changed.");
                            ObjectNode contact = contacts.update(call.tx(), Actor.member(call.userId()), id, changes);
                            return PageOutcome.goTo(LIST + "/" + id, "Contact " + name(contact) + " saved.");
                        }),
                PageRoute.action(LIST + "/{id}/delete").scope(CrmScopes.CONTACTS_WRITE).button()
                        .action((call, values) -> {
                            UUID id = call.pathId("id");
                            String name = name(find(call, id));
                            contacts.delete(call.tx(), id);
                            return PageOutcome.goTo(LIST, "Contact " + name + " deleted; their deals are kept.");
                        }));
    }

    /** The search box's contacts: every word in the name, e-mail, company, job title or phone, by name. */
    PageSearch search() {
        return new PageSearch("Contacts", CrmScopes.CONTACTS_READ, (call, text, limit) ->
                new ContactListing(call.tx().handle(), call.workspaceId())
                        .page(new ContactListing.Filters(SearchWords.of(text, "?q"), List.of(), List.of(), null, null),
                                ContactListing.Order.NAME, new PageRequest(1, limit))
                        .rows().stream()
                        .map(c -> new SearchHit(name(c), subtitle(c.path("email").asText(""),
                                c.path("company_name").asText("")), LIST + "/" + c.path("id").asText()))
                        .toList());
    }

    /** The parts that are there, joined: "ada@example.com · Acme". */
    static String subtitle(String... parts) {
        return String.join(" · ", java.util.Arrays.stream(parts).filter(p -> !p.isBlank()).toList());
    }

    private PageView list(PageCall call) {
        var filters = new ContactListing.Filters(SearchWords.of(call.query("search").orElse(null), "?search"),
                call.queryAll("status"), call.queryAll("type"), call.query("tag").orElse(null), null);
        var page = new ContactListing(call.tx().handle(), call.workspaceId())
                .page(filters, ContactListing.Order.of(call.query("sort").orElse("")), call.page());
        ListView view = new ListView("Contacts", columns(), List.of(
                Filter.search("search", "Search"),
                Filter.anyOf("status", "Status", choices(schemas.contactCreate, "status")),
                Filter.choice("type", "Type", choices(schemas.contactCreate, "contact_type")),
                Filter.search("tag", "Tag")),
                page.rows().stream().map(ContactPages::withName).map(CrmLabels::contact).toList(), page.hasMore(), List.of(),
                "No contacts match. Clear the filters, or create one.");
        return call.may(CrmScopes.CONTACTS_WRITE) ? view.actions(Link.to("New contact", LIST + "/new")) : view;
    }

    private static List<Column> columns() {
        return List.of(
                Column.of("Name", "name").linkedTo(LIST + "/{id}").sortable("name"),
                Column.of("Email", "email"),
                Column.of("Company", "company_name"),
                Column.of("Status", "status_label"),
                Column.of("Type", "contact_type_label"),
                Column.of("Created", "created_at").sortable("created"),
                Column.of("Updated", "updated_at").sortable("updated"));
    }

    private PageView detail(PageCall call) {
        UUID id = call.pathId("id");
        ObjectNode contact = find(call, id);
        java.util.Map<String, DetailView.Field> named = contact.hasNonNull("company_id")
                ? java.util.Map.of("company_id", new DetailView.Field("Company", CrmChoices.companyName(call,
                        contact.get("company_id").asText())))
                : java.util.Map.of();
        List<ListView> related = new ArrayList<>();
        if (call.may(CrmScopes.DEALS_READ)) {
            var deals = new DealListing(call.tx().handle(), call.workspaceId())
                    .page(List.of(), List.of(), List.of(), id, null, new dev.lnp.api.http.PageRequest(1, 20));
            related.add(ListView.of("Deals", DealPages.columns(), DealPages.rows(deals.rows()), false)
                    .emptyText("No deals with this contact."));
        }
        // Conversations other modules linked to the contact (the chat of a verified visitor), each with its page.
        related.add(ListView.of("Conversations", List.of(
                        Column.of("Conversation", "title").linkedTo("{path}"),
                        Column.of("Channel", "channel"),
                        Column.of("Started", "started_at")),
                        ContactConversations.of(call.tx().handle(), call.workspaceId(), id, 20), false)
                .emptyText("No conversations with this contact."));
        var activity = TimelinePages.recent(call, LIST + "/" + id,
                TimelinePages.contactActivity(call, id, TimelinePages.firstPage()), Timeline.Of.CONTACT);
        related.add(activity.list());
        List<Link> actions = new ArrayList<>();
        if (call.may(CrmScopes.CONTACTS_WRITE)) {
            actions.add(Link.to("Edit", LIST + "/" + id + "/edit"));
            actions.add(Link.to("New deal", DealPages.LIST + "/new?contact_id=" + id));
            actions.add(Link.post("Delete", LIST + "/" + id + "/delete",
                    "Delete " + name(contact) + "? Their deals are kept without a contact."));
        }
        activity.older().ifPresent(actions::add);
        return new DetailView(name(contact), RecordFields.fields(contact, schemas.contactCreate, named), related, actions);
    }

    private static ObjectNode find(PageCall call, UUID id) {
        return new ContactListing(call.tx().handle(), call.workspaceId()).find(id)
                .orElseThrow(() -> ApiProblem.notFound("Contact"));
    }

    static List<Choice> choices(JsonNode schema, String property) {
        return dev.lnp.api.pages.EnumLabels.choices(schema, property);
    }

    /** {@code job_title} as "Job title": a field's name as people read it. */
    static String label(String name) {
        String spaced = name.replace('_', ' ');
        return Character.toUpperCase(spaced.charAt(0)) + spaced.substring(1);
    }

    static ObjectNode withName(ObjectNode contact) {
        return contact.deepCopy().put("name", name(contact));
    }

    /** First and last name, or the email address when the contact has no name. */
    static String name(JsonNode contact) {
        String name = (contact.path("first_name").asText("") + " " + contact.path("last_name").asText("")).trim();
        return name.isEmpty() ? contact.path("email").asText() : name;
    }
}
