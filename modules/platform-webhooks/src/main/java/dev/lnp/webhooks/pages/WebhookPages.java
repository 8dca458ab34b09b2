package dev.lnp.webhooks.pages;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.webhooks.WebhookRoutes;
import dev.lnp.webhooks.WebhookService;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The Webhooks pages of the console, declared with the public page API as any plugin declares its pages: the
 * subscriptions, one subscription with its recent deliveries, the create and edit forms (the API's schema), the event
 * catalog and the notices. The scopes are the API's ({@code webhooks.read} to look, {@code webhooks.write} to
 * change); the pages live under {@code /console/}, so only owners and admins reach them. The actions are
 * {@link WebhookActions}, the deliveries {@link DeliveryPages}.
 */
public final class WebhookPages {

    static final String HOME = "/console/webhooks";
    static final String ONE = HOME + "/{id}";
    private static final int RECENT_DELIVERIES = 10;

    private final WebhookService webhooks;

    private WebhookPages(WebhookService webhooks) {
        this.webhooks = webhooks;
    }

    /** Every Webhooks page and action, the fixed paths before those with an id. */
    public static List<PageRoute> routes(WebhookService webhooks) {
        var pages = new WebhookPages(webhooks);
        var deliveries = new DeliveryPages(webhooks);
        var actions = new WebhookActions(webhooks);
        String read = WebhookRoutes.READ;
        String write = WebhookRoutes.WRITE;
        List<PageRoute> routes = new ArrayList<>(List.of(
                PageRoute.view(HOME).scope(read).nav("API & MCP", "Webhooks").renderer(pages::list),
                PageRoute.view(HOME + "/new").scope(write).renderer(pages::newForm),
                PageRoute.view(HOME + "/events").scope(read).renderer(pages::catalog),
                PageRoute.view(HOME + "/notices").scope(read).renderer(pages::notices),
                PageRoute.view(ONE).scope(read).renderer(pages::show),
                PageRoute.view(ONE + "/edit").scope(write).renderer(pages::editForm),
                PageRoute.view(ONE + "/recover").scope(write).renderer(pages::recoverForm),
                PageRoute.view(ONE + "/deliveries").scope(read).renderer(deliveries::list),
                PageRoute.view(ONE + "/deliveries/{delivery}").scope(read).renderer(deliveries::show)));
        routes.addAll(actions.routes());
        return routes;
    }

    private ListView list(PageCall call) {
        var page = call.page();
        var found = webhooks.list(call.tx(), page.limit(), page.offset());
        long total = webhooks.count(call.tx());
        List<Link> links = new ArrayList<>();
        if (call.may(WebhookRoutes.WRITE)) {
            links.add(Link.to("New subscription", HOME + "/new"));
        }
        links.add(Link.to("Event catalog", HOME + "/events"));
        links.add(Link.to("Notices (" + webhooks.noticeCount(call.tx()) + ")", HOME + "/notices"));
        return ListView.of("Webhooks", List.of(
                        Column.of("Receiver URL", "url").linkedTo(HOME + "/{id}"),
                        Column.of("Events", "events"),
                        Column.of("Description", "description"),
                        Column.of("State", "state"),
                        Column.of("Created", "created_at")),
                        found.stream().map(PageText::row).toList(), page.offset() + found.size() < total)
                .actions(links.toArray(Link[]::new))
                .emptyText("No subscriptions yet. A subscription sends the workspace's events to a receiver URL as "
                        + "signed HTTP POST requests.");
    }

    private FormView newForm(PageCall call) {
        ObjectNode values = Json.object().put("enabled", true);
        return new FormView("New subscription", webhooks.createSchema(), values, "Create subscription", HOME);
    }

    private ListView catalog(PageCall call) {
        List<ObjectNode> rows = webhooks.events(call.tx()).stream()
                .map(e -> Json.object().put("name", e.type().name()).put("module", e.pluginId())
                        .put("aliases", String.join(", ", e.type().aliases()))
                        .put("description", e.type().description()))
                .toList();
        return ListView.of("Event catalog", List.of(Column.of("Event", "name"), Column.of("Module", "module"),
                        Column.of("Aliases", "aliases"), Column.of("What happened", "description")), rows, false)
                .actions(Link.to("Webhooks", HOME))
                .emptyText("No events are registered.");
    }

    private ListView notices(PageCall call) {
        var page = call.page();
        var found = webhooks.notices(call.tx(), page.limit(), page.offset());
        long total = webhooks.noticeCount(call.tx());
        List<ObjectNode> rows = found.stream()
                .map(n -> Json.object().put("at", PageText.time(n.get("created_at"))).put("kind", (String) n.get("kind"))
                        .put("message", (String) n.get("message"))
                        .put("subscription", n.get("subject_id") == null ? "" : "Show")
                        .put("subject_id", n.get("subject_id") == null ? "" : n.get("subject_id").toString())
                        .put("sent_to", (n.get("recipient") == null ? "nobody" : (String) n.get("recipient"))
                                + (n.get("emailed_at") == null ? " (not e-mailed)"
                                        : " (e-mailed " + PageText.time(n.get("emailed_at")) + ")")))
                .toList();
        return ListView.of("Webhook notices", List.of(Column.of("When", "at"), Column.of("Kind", "kind"),
                        Column.of("Message", "message"),
                        Column.of("Subscription", "subscription").linkedTo(HOME + "/{subject_id}"),
                        Column.of("Sent to", "sent_to")),
                        rows, page.offset() + rows.size() < total)
                .actions(Link.to("Webhooks", HOME))
                .emptyText("No notices. The platform tells the owner here (and by e-mail) when it switches off a "
                        + "subscription whose receiver failed for days.");
    }

    private DetailView show(PageCall call) {
        UUID id = call.pathId("id");
        var s = webhooks.find(call.tx(), id);
        var recent = webhooks.deliveries(call.tx(), id, Optional.empty(), RECENT_DELIVERIES, 0);
        long total = webhooks.deliveryCount(call.tx(), id, Optional.empty());
        String base = HOME + "/" + id;
        var view = new DetailView(s.url(), List.of(
                new Field("State", PageText.state(s)),
                new Field("Events", String.join(", ", s.events())),
                new Field("Description", s.description() == null ? "none" : s.description()),
                new Field("Created", PageText.time(s.createdAt())),
                new Field("Subscription id", s.id().toString())),
                List.of(DeliveryPages.table("Recent deliveries (" + recent.size() + " of " + total + ")", base,
                        recent.stream().map(PageText::deliveryRow).toList(), false)),
                List.of());
        List<Link> links = new ArrayList<>(List.of(Link.to("All deliveries", base + "/deliveries")));
        if (call.may(WebhookRoutes.WRITE)) {
            links.add(Link.to("Edit", base + "/edit"));
            links.add(s.enabled() ? Link.post("Switch off", base + "/switch-off", null)
                    : Link.post("Switch on", base + "/switch-on", null));
            links.add(Link.post("Send test event", base + "/test", null));
            links.add(Link.post("Issue a new signing secret", base + "/rotate-secret", null));
            links.add(Link.to("Recover failed deliveries", base + "/recover"));
            links.add(Link.post("Delete subscription", base + "/delete",
                    "Delete this subscription and its delivery history"));
        }
        return view.actions(links.toArray(Link[]::new));
    }

    private FormView editForm(PageCall call) {
        var s = webhooks.find(call.tx(), call.pathId("id"));
        ObjectNode values = Json.object().put("url", s.url()).put("description", s.description());
        s.events().forEach(values.putArray("events")::add);
        return new FormView("Edit " + s.url(), WebhookActions.editSchema(webhooks), values, "Save changes",
                HOME + "/" + s.id());
    }

    private FormView recoverForm(PageCall call) {
        var s = webhooks.find(call.tx(), call.pathId("id"));
        String since = LocalDateTime.ofInstant(Instant.now().minusSeconds(24 * 3600), ZoneOffset.UTC)
                .withSecond(0).withNano(0).toString();
        return new FormView("Recover failed deliveries of " + s.url(), WebhookActions.RECOVER,
                Json.object().put("since", since), "Recover failed deliveries", HOME + "/" + s.id());
    }
}
