package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.pages.FormChanges;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.Filter;
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
 * Companies in the workspace application: the list, a company's page with its contacts and deals, and the forms
 * that create, change and delete one, all through {@link CompanyService} as the API and the tools.
 */
final class CompanyPages {

    static final String LIST = "/app/crm/companies";
    /** Deals a company's page lists; the rest are in the deals list. */
    static final int DEALS_ON_THE_PAGE = 20;

    private final CompanyService companies;
    private final CrmSchemas schemas;

    CompanyPages(CompanyService companies, CrmSchemas schemas) {
        this.companies = companies;
        this.schemas = schemas;
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(LIST).scope(CrmScopes.COMPANIES_READ).nav("CRM", "Companies")
                        .liveOn("crm.company.*").renderer(this::list),
                PageRoute.view(LIST + "/new").scope(CrmScopes.COMPANIES_WRITE).renderer(call ->
                        new FormView("New company", schemas.companyCreate, Json.object(), "Create company", LIST)),
                PageRoute.action(LIST + "/new").scope(CrmScopes.COMPANIES_WRITE).form(schemas.companyCreate)
                        .action((call, values) -> {
                            ObjectNode company = companies.create(call.tx(), Actor.member(call.userId()), values);
                            return PageOutcome.goTo(LIST + "/" + company.get("id").asText(),
                                    "Company " + company.get("name").asText() + " created.");
                        }),
                PageRoute.view(LIST + "/{id}").scope(CrmScopes.COMPANIES_READ).renderer(this::detail),
                PageRoute.view(LIST + "/{id}/edit").scope(CrmScopes.COMPANIES_WRITE).renderer(call -> {
                    ObjectNode company = companies.get(call.tx(), call.pathId("id"));
                    return new FormView("Edit " + company.get("name").asText(), schemas.companyPatch,
                            FormChanges.editable(company, schemas.companyPatch), "Save",
                            LIST + "/" + company.get("id").asText());
                }),
                PageRoute.action(LIST + "/{id}/edit").scope(CrmScopes.COMPANIES_WRITE).form(schemas.companyPatch)
                        .action((call, values) -> {
                            UUID id = call.pathId("id");
                            ObjectNode changes = FormChanges.changes(companies.get(call.tx(), id), values, schemas.companyPatch);
                            if (changes.isEmpty()) return PageOutcome.goTo(LIST + "/" + id, "Nothing was changed.");
                            ObjectNode company = companies.update(call.tx(), Actor.member(call.userId()), id, changes);
                            return PageOutcome.goTo(LIST + "/" + id, "Company " + company.get("name").asText() + " saved.");
                        }),
                PageRoute.action(LIST + "/{id}/delete").scope(CrmScopes.COMPANIES_WRITE).button()
                        .action((call, values) -> {
                            UUID id = call.pathId("id");
                            String name = companies.get(call.tx(), id).get("name").asText();
                            companies.delete(call.tx(), id);
                            return PageOutcome.goTo(LIST, "Company " + name + " deleted.");
                        }));
    }

    /** The search box's companies: every word in the name, domain, industry, city or country, by name. */
    PageSearch search() {
        return new PageSearch("Companies", CrmScopes.COMPANIES_READ, (call, text, limit) ->
                new CompanyListing(call.tx().handle(), call.workspaceId())
                        .page(SearchWords.of(text, "?q"), true, new PageRequest(1, limit)).rows().stream()
                        .map(c -> new SearchHit(c.path("name").asText(), ContactPages.subtitle(
                                c.path("domain").asText(""), c.path("city").asText("")),
                                LIST + "/" + c.path("id").asText()))
                        .toList());
    }

    private PageView list(PageCall call) {
        var page = new CompanyListing(call.tx().handle(), call.workspaceId()).page(
                SearchWords.of(call.query("search").orElse(null), "?search"),
                call.query("sort").orElse("").equals("name"), call.page());
        ListView view = new ListView("Companies", List.of(
                Column.of("Name", "name").linkedTo(LIST + "/{id}").sortable("name"),
                Column.of("Domain", "domain"),
                Column.of("Industry", "industry"),
                Column.of("City", "city"),
                Column.of("Created", "created_at")),
                List.of(Filter.search("search", "Search")), page.rows(), page.hasMore(), List.of(),
                "No companies match. Clear the search, or create one.");
        return call.may(CrmScopes.COMPANIES_WRITE) ? view.actions(Link.to("New company", LIST + "/new")) : view;
    }

    private PageView detail(PageCall call) {
        UUID id = call.pathId("id");
        ObjectNode company = companies.get(call.tx(), id);
        List<ListView> related = new ArrayList<>();
        PageRequest first = new PageRequest(1, 20);
        if (call.may(CrmScopes.CONTACTS_READ)) {
            var contacts = new ContactListing(call.tx().handle(), call.workspaceId()).page(
                    new ContactListing.Filters(List.of(), List.of(), List.of(), null, id),
                    ContactListing.Order.NAME, first);
            related.add(ListView.of("Contacts", List.of(
                            Column.of("Name", "name").linkedTo(ContactPages.LIST + "/{id}"),
                            Column.of("Email", "email"), Column.of("Job title", "job_title")),
                    contacts.rows().stream().map(ContactPages::withName).toList(), false)
                    .emptyText("No contacts at this company."));
        }
        List<Field> fields = new ArrayList<>(RecordFields.fields(company, schemas.companyCreate));
        if (call.may(CrmScopes.DEALS_READ)) {
            var listing = new DealListing(call.tx().handle(), call.workspaceId());
            fields.add(new Field("Pipeline value", pipeline(listing.pipelineOf(id))));
            var deals = listing.ofCompany(id, new PageRequest(1, DEALS_ON_THE_PAGE));
            related.add(ListView.of(deals.hasMore() ? "Deals (the " + DEALS_ON_THE_PAGE + " newest)" : "Deals",
                            DealPages.columns(), DealPages.rows(deals.rows()), false)
                    .emptyText("No deals with this company or its contacts."));
        }
        var activity = TimelinePages.recent(call, LIST + "/" + id,
                TimelinePages.companyActivity(call, id, TimelinePages.firstPage()), Timeline.Of.COMPANY);
        related.add(activity.list());
        List<Link> actions = new ArrayList<>();
        if (call.may(CrmScopes.COMPANIES_WRITE)) {
            actions.add(Link.to("Edit", LIST + "/" + id + "/edit"));
            actions.add(Link.post("Delete", LIST + "/" + id + "/delete",
                    "Delete " + company.get("name").asText() + "?"));
        }
        activity.older().ifPresent(actions::add);
        return new DetailView(company.get("name").asText(), fields, related, actions);
    }

    /** "12,000 EUR · 500 USD in 3 open deals", per currency; a deal without a value counts, adding nothing. */
    static String pipeline(List<DealListing.Pipeline> currencies) {
        long deals = currencies.stream().mapToLong(DealListing.Pipeline::deals).sum();
        if (deals == 0) return "No open deals";
        String values = currencies.stream().filter(p -> p.value().signum() > 0)
                .map(p -> DealPages.money(p.value()) + (p.currency() == null ? "" : " " + p.currency()))
                .collect(java.util.stream.Collectors.joining(" · "));
        return (values.isEmpty() ? "No value yet" : values) + " in " + deals + (deals == 1 ? " open deal" : " open deals");
    }
}
