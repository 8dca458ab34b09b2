package dev.lnp.plugins.crm;

/** The scopes the CRM declares, and the monthly quota its writes count against. */
final class CrmScopes {

    static final String CONTACTS_READ = "contacts.read";
    static final String CONTACTS_WRITE = "contacts.write";
    static final String DEALS_READ = "deals.read";
    static final String DEALS_WRITE = "deals.write";
    static final String COMPANIES_READ = "companies.read";
    static final String COMPANIES_WRITE = "companies.write";

    /**
     * Every CRM write (route or tool) consumes one unit of this monthly counter; the core enforces it. Deployments
     * change the default with {@code lnp.quotas.crm.monthly}.
     */
    static final String QUOTA = "crm";
    static final long QUOTA_DEFAULT_MONTHLY = 100_000L;

    private CrmScopes() {
    }
}
