package dev.lnp.webhooks.console;

import dev.lnp.api.internal.console.ConsoleApi;
import dev.lnp.api.internal.console.ConsoleAuthorization.Permission;
import dev.lnp.api.internal.console.ConsoleExtension;
import dev.lnp.api.internal.console.ConsolePages;
import dev.lnp.api.internal.db.Transactions;
import dev.lnp.webhooks.WebhookService;
import io.helidon.webserver.http.HttpRules;
import java.util.List;

/** The console's Webhooks pages and their JSON twin, every route listed here with the method that handles it. */
public final class WebhooksConsole implements ConsoleExtension {

    private final Transactions transactions;
    private final WebhookService webhooks;
    private final WebhookTemplates templates = new WebhookTemplates();

    public WebhooksConsole(Transactions transactions, WebhookService webhooks) {
        this.transactions = transactions;
        this.webhooks = webhooks;
    }

    @Override
    public List<NavLink> navigation() {
        return List.of(new NavLink(Permission.VIEW_WEBHOOKS, "Webhooks", "/console/webhooks"));
    }

    @Override
    public void pages(HttpRules rules, ConsolePages console) {
        var pages = new WebhookPages(console, transactions, webhooks, templates);
        rules.get("/webhooks", console.page(pages::list))
                .post("/webhooks", console.page(pages::create))
                .get("/webhooks/events", console.page(pages::catalog))
                .get("/webhooks/notices", console.page(pages::notices))
                .get("/webhooks/{id}", console.page(pages::show))
                .post("/webhooks/{id}", console.page(pages::update))
                .post("/webhooks/{id}/switch", console.page(pages::switchOnOrOff))
                .post("/webhooks/{id}/delete", console.page(pages::delete))
                .post("/webhooks/{id}/rotate-secret", console.page(pages::rotateSecret))
                .post("/webhooks/{id}/test", console.page(pages::sendTest))
                .post("/webhooks/{id}/recover", console.page(pages::recover))
                .get("/webhooks/{id}/deliveries/{delivery}", console.page(pages::delivery))
                .post("/webhooks/{id}/deliveries/{delivery}/redeliver", console.page(pages::redeliver));
    }

    @Override
    public void api(HttpRules rules, ConsoleApi api) {
        new WebhookManagementApi(api, transactions, webhooks).routing(rules);
    }
}
