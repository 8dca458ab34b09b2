package dev.lnp.core;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;
import dev.lnp.core.auth.ScopeCatalog;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.http.OpenApiRoute;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.tenancy.UserRoutes;
import dev.lnp.core.webhooks.EventCatalog;
import dev.lnp.core.webhooks.WebhookRoutes;
import dev.lnp.core.webhooks.WebhookSettings;
import java.time.Clock;

/** The core's own contributions, registered like any plugin's so that listings and catalogs include them. */
public final class CorePlugin implements PlatformPlugin {

    public static final String ID = "core";

    private final WebhookRoutes webhooks;
    private final OpenApiRoute openApi;

    public CorePlugin(WebhookRoutes webhooks, OpenApiRoute openApi) {
        this.webhooks = webhooks;
        this.openApi = openApi;
    }

    /** For listings (scopes, routes) and the platform itself: the webhook routes read the registry when called. */
    public static CorePlugin of(PluginRegistry registry, PlatformConfig config, Clock clock) {
        return new CorePlugin(new WebhookRoutes(registry, WebhookSettings.from(config), clock),
                new OpenApiRoute(registry, config.get("lnp.base.url")));
    }

    @Override
    public void register(Registrar registrar) {
        registrar.scope(ScopeCatalog.MCP_USE, "Use the hosted MCP endpoints (tools are further limited by their own "
                + "scopes); implied by holding the scope of any tool.");
        registrar.scope(WebhookRoutes.READ, "Read webhook subscriptions, their delivery history and the event catalog.");
        registrar.scope(WebhookRoutes.WRITE, "Create, change and delete webhook subscriptions; rotate secrets; "
                + "test, redeliver and recover deliveries.");
        registrar.scope(UserRoutes.READ, "Read the users of the workspace (to resolve assignees and delegation users).");
        UserRoutes.routes().forEach(registrar::route);
        registrar.event(EventCatalog.TEST_EVENT);
        webhooks.routes().forEach(registrar::route);
        registrar.route(openApi.route());
    }
}
