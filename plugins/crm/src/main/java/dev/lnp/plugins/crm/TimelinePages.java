package dev.lnp.plugins.crm;

import dev.lnp.api.http.PageRequest;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageView;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The activity of a contact, a company or a deal: the newest entries on the record's own page, and every entry,
 * a page at a time and newest first, at {@code <record>/activity} ("Show older activity"). A record of another
 * workspace, or none, is not found, as on the record's page.
 */
final class TimelinePages {

    static final String SUFFIX = "/activity";

    private final ContactService contacts;
    private final CompanyService companies;
    private final DealService deals;

    TimelinePages(ContactService contacts, CompanyService companies, DealService deals) {
        this.contacts = contacts;
        this.companies = companies;
        this.deals = deals;
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(ContactPages.LIST + "/{id}" + SUFFIX).scope(CrmScopes.CONTACTS_READ).renderer(call -> {
                    UUID id = call.pathId("id");
                    String name = ContactPages.name(contacts.get(call.tx(), id));
                    return all(call, "Activity of " + name, ContactPages.LIST + "/" + id,
                            contactActivity(call, id, call.page()), Timeline.Of.CONTACT);
                }),
                PageRoute.view(CompanyPages.LIST + "/{id}" + SUFFIX).scope(CrmScopes.COMPANIES_READ).renderer(call -> {
                    UUID id = call.pathId("id");
                    String name = companies.get(call.tx(), id).get("name").asText();
                    return all(call, "Activity of " + name, CompanyPages.LIST + "/" + id,
                            companyActivity(call, id, call.page()), Timeline.Of.COMPANY);
                }),
                PageRoute.view(DealPages.LIST + "/{id}" + SUFFIX).scope(CrmScopes.DEALS_READ).renderer(call -> {
                    UUID id = call.pathId("id");
                    String title = deals.get(call.tx(), id).get("title").asText();
                    return all(call, "Activity of " + title, DealPages.LIST + "/" + id,
                            dealActivity(call, id, call.page()), Timeline.Of.DEAL);
                }));
    }

    /** The newest entries for the record's page, and the link to the older ones when there are more. */
    record Recent(ListView list, Optional<Link> older) {
    }

    static Recent recent(PageCall call, String recordPath, RowsPage page, Timeline.Of of) {
        return new Recent(Timeline.list("Activity", page, of, call),
                page.hasMore() ? Optional.of(Link.to("Show older activity", recordPath + SUFFIX)) : Optional.empty());
    }

    static PageRequest firstPage() {
        return new PageRequest(1, Timeline.ON_THE_PAGE);
    }

    static RowsPage contactActivity(PageCall call, UUID id, PageRequest page) {
        return activity(call).ofContact(id, call.may(CrmScopes.DEALS_READ), page);
    }

    static RowsPage companyActivity(PageCall call, UUID id, PageRequest page) {
        return activity(call).ofCompany(id, call.may(CrmScopes.CONTACTS_READ), call.may(CrmScopes.DEALS_READ), page);
    }

    static RowsPage dealActivity(PageCall call, UUID id, PageRequest page) {
        return activity(call).ofDeal(id, page);
    }

    private static PageView all(PageCall call, String title, String recordPath, RowsPage page, Timeline.Of of) {
        return Timeline.list(title, page, of, call).actions(Link.to("Back", recordPath));
    }

    private static ActivityRepository activity(PageCall call) {
        return new ActivityRepository(call.tx().handle(), call.workspaceId());
    }
}
