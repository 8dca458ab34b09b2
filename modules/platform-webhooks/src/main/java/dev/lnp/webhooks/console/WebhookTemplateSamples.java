package dev.lnp.webhooks.console;

import dev.lnp.api.internal.console.Choice;
import dev.lnp.api.internal.console.Chrome;
import dev.lnp.api.internal.subsystem.TemplateRender;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Every template of the Webhooks pages with a model that reaches its loops and branches, for {@code platform
 * doctor} ({@link dev.lnp.api.internal.subsystem.Subsystem#templates()}). {@code webhookform.jte} is part of the list and
 * subscription pages and is rendered with them.
 */
public final class WebhookTemplateSamples {

    private WebhookTemplateSamples() {
    }

    public static final List<String> PARTS = List.of("webhookform.jte");

    public static List<TemplateRender> all() {
        var templates = new WebhookTemplates();
        UUID id = UUID.fromString("00000000-0000-4000-8000-000000000002");
        var chrome = new Chrome("Webhooks", "/console/assets/1/console.css", "/console/assets/1/console.js",
                "owner@example.com", "Acme", "owner", "csrf-token", List.of());
        var row = new WebhookViews.Row(id, "https://hooks.example.com/in", "crm.deal.won", "Sales", false,
                "failing for 3 days", "2026-01-01 10:00 UTC", "2026-01-01 09:00 UTC");
        var form = new WebhookViews.Form("https://hooks.example.com/in",
                List.of(new WebhookViews.EventChoice("crm.deal.won", "crm", "A deal was won", true)), "projects.*",
                "Sales", true, Map.of("url", "must be an https URL"));
        var delivery = new WebhookViews.DeliveryRow(id, "crm.deal.won", false, "failed", 3, "2026-01-01 09:00 UTC",
                "2026-01-01 09:05 UTC", "HTTP 500");
        List<WebhookViews.Page> pages = List.of(
                new WebhookViews.ListPage(chrome, List.of(row), form, List.of("sample error"), 30, 2),
                new WebhookViews.SecretPage(chrome, id, "https://hooks.example.com/in", "whsec_sample",
                        "2026-01-02 09:00 UTC"),
                new WebhookViews.CatalogPage(chrome, List.of(new WebhookViews.CatalogEntry("crm.deal.won", "crm",
                        "A deal was won", "deal.won"))),
                new WebhookViews.SubscriptionPage(chrome, row, form, List.of("sample error"), "Saved",
                        List.of(delivery), List.of(new Choice("failed", "Failed", true)), "failed", 1, true,
                        40, "2026-01-01"),
                new WebhookViews.DeliveryPage(chrome, id, "https://hooks.example.com/in", delivery,
                        "2026-01-01 09:00 UTC", "2026-01-01 10:00 UTC", null,
                        List.of(new WebhookViews.AttemptRow(1, "2026-01-01 09:00 UTC", 120, "500", "failed",
                                "server error", "error: true", true)), List.of("sample error"), "Redelivered"),
                new WebhookViews.NoticesPage(chrome, List.of(new WebhookViews.NoticeRow("2026-01-01 09:00 UTC",
                        "disabled", id, "owner@example.com", "Disabled after failing", "2026-01-01 09:01 UTC")), 1,
                        true, 12));
        List<String> names = List.of("webhooks.jte", "webhooksecret.jte", "webhookevents.jte", "webhook.jte",
                "webhookdelivery.jte", "webhooknotices.jte");
        return java.util.stream.IntStream.range(0, pages.size())
                .mapToObj(i -> new TemplateRender("webhooks/" + names.get(i),
                        () -> templates.body(names.get(i), pages.get(i))))
                .toList();
    }
}
