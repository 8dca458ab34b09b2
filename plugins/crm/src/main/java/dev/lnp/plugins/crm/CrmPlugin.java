package dev.lnp.plugins.crm;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;
import dev.lnp.api.crm.ContactDirectory;
import dev.lnp.api.crm.DealDirectory;
import dev.lnp.api.pages.PageRegistrar;

/**
 * The CRM: contacts, deals and companies, over REST and MCP tools that share one service per entity, with their
 * events written to the outbox in the same transaction as the change. Decisions the contract leaves open are in
 * docs/crm.md.
 */
public final class CrmPlugin implements PlatformPlugin {

    public static final String SCHEMA = "crm";

    @Override
    public void register(Registrar registrar) {
        var schemas = new CrmSchemas();
        var contacts = new ContactService();
        var deals = new DealService();
        var companies = new CompanyService();
        registrar.scope(CrmScopes.CONTACTS_READ, "Read and search contacts")
                .scope(CrmScopes.CONTACTS_WRITE, "Create, change and delete contacts")
                .scope(CrmScopes.DEALS_READ, "Read deals")
                .scope(CrmScopes.DEALS_WRITE, "Create, change and delete deals")
                .scope(CrmScopes.COMPANIES_READ, "Read and search companies")
                .scope(CrmScopes.COMPANIES_WRITE, "Create, change and delete companies")
                .quota(CrmScopes.QUOTA, CrmScopes.QUOTA_DEFAULT_MONTHLY)
                .migrations(SCHEMA)
                .provide(DealDirectory.class, (tx, dealId) -> new DealRepository(tx.handle(), tx.workspaceId())
                        .exists(dealId))
                .provide(ContactDirectory.class, new ContactConversations(contacts));
        new ContactRoutes(contacts, schemas).routes().forEach(registrar::route);
        new DealRoutes(deals, schemas).routes().forEach(registrar::route);
        new CompanyRoutes(companies, schemas).routes().forEach(registrar::route);
        new ContactTools(contacts, schemas).tools().forEach(registrar::tool);
        new DealTools(deals, schemas).tools().forEach(registrar::tool);
        new CompanyTools(companies, schemas).tools().forEach(registrar::tool);
        CrmEvents.types(schemas).forEach(registrar::event);
        var contactPages = new ContactPages(contacts, schemas);
        var dealPages = new DealPages(deals, schemas);
        var companyPages = new CompanyPages(companies, schemas);
        PageRegistrar pages = PageRegistrar.of(registrar);
        // The home first: it is the CRM's first navigation entry, where the start page leads.
        pages.page(new CrmHome().page());
        contactPages.pages().forEach(pages::page);
        dealPages.pages().forEach(pages::page);
        companyPages.pages().forEach(pages::page);
        new TimelinePages(contacts, companies, deals).pages().forEach(pages::page);
        pages.search(contactPages.search()).search(companyPages.search()).search(dealPages.search());
    }
}
