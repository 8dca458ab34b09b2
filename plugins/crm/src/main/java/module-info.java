/** The CRM plugin: contacts, deals and companies. Built only against the platform API, like a third-party plugin. */
module dev.lnp.plugins.crm {
    requires lnp.platform.api;
    requires lnp.platform.pages;

    provides dev.lnp.api.PlatformPlugin with dev.lnp.plugins.crm.CrmPlugin;
}
