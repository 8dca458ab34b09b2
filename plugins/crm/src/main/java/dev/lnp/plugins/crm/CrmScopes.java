package dev.lnp.plugins.crm;

/** The scopes the CRM declares, and the monthly quota its writes count against. */
final class CrmScopes {

    static final String CONTACTS_READ = "contacts.read";
    static final String CONTACTS_WRITE = "contacts.write";
    static final String DEALS_READ = "deals.read";
    static final String DEALS_WRITE = "deals.write";

    /** Every CRM write (route or tool) consumes one unit of this monthly counter; the core enforces it. */
    static final String QUOTA = "crm";

    private CrmScopes() {
    }
}
