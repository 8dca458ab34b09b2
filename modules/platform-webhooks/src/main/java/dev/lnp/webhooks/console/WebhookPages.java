package dev.lnp.webhooks.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.PluginContext;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.internal.console.Choice;
import dev.lnp.api.internal.console.ConsoleAuthorization.Permission;
import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.console.ConsolePages;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.ConsoleTime;
import dev.lnp.api.internal.console.Ids;
import dev.lnp.api.internal.console.PageExchange;
import dev.lnp.api.internal.db.Transactions;
import dev.lnp.webhooks.EventCatalog;
import dev.lnp.webhooks.SubscriptionRepository.Subscription;
import dev.lnp.webhooks.WebhookRoutes;
import dev.lnp.webhooks.WebhookService;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The Webhooks section: subscriptions (create, edit, switch off and on, delete, rotate the secret, send a test),
 * the event catalog, each subscription's deliveries with their attempts (redeliver one, recover failed ones since
 * a time) and the workspace's notices. Everything goes through {@link WebhookService}, the service the
 * {@code /api/v1/webhooks} routes use, in the signed-in user's workspace transaction; every change is recorded
 * in the console activity.
 */
final class WebhookPages {

    private static final int DELIVERIES_PER_PAGE = 25;
    private static final int NOTICES_PER_PAGE = 50;
    private static final int LIST_LIMIT = 200;
    private static final String HOME = "/console/webhooks";
    /** Messages after a change, chosen by a fixed key so a link cannot put words on the page. */
    private static final Map<String, String> DONE = Map.of(
            "saved", "The subscription was saved.",
            "on", "The subscription is switched on; its failure streak starts again.",
            "off", "The subscription is switched off; no events are delivered to it until it is switched on.",
            "test", "A test delivery (webhooks.test) is queued; its attempts appear below once sent.",
            "redelivered", "The delivery is queued again with the same id; new attempts appear below once sent.");

    private final ConsolePages console;
    private final Transactions transactions;
    private final WebhookService webhooks;
    private final WebhookTemplates templates;

    WebhookPages(ConsolePages console, Transactions transactions, WebhookService webhooks,
            WebhookTemplates templates) {
        this.templates = templates;
        this.console = console;
        this.transactions = transactions;
        this.webhooks = webhooks;
    }

    void list(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.VIEW_WEBHOOKS);
        renderList(x, session, 200, emptyForm(session), List.of());
    }

    void create(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_WEBHOOKS);
        x.checkPost(session.csrfToken());
        var submitted = submittedForm(x, "on".equals(x.form("enabled")));
        WebhookService.Created created;
        try {
            ObjectNode body = body(submitted);
            body.put("enabled", submitted.enabled());
            webhooks.checkShape(body, false);
            created = inWorkspace(session, tx -> webhooks.create(tx, body));
        } catch (ApiProblem problem) {
            renderList(x, session, 400, submitted.withErrors(fieldErrors(problem)), formErrors(problem));
            return;
        }
        var subscription = created.subscription();
        console.activity().record(session, "webhook.created", target(subscription),
                "events " + String.join(", ", subscription.events()) + (subscription.enabled() ? "" : "; switched off"));
        templates.render(x, 201, "webhooksecret.jte", new WebhookViews.SecretPage(console.chrome(x, "Subscription created", HOME),
                subscription.id(), subscription.url(), created.secret(), null));
    }

    void catalog(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.VIEW_WEBHOOKS);
        List<WebhookViews.CatalogEntry> entries = inWorkspace(session, webhooks::events).stream()
                .map(e -> new WebhookViews.CatalogEntry(e.type().name(), e.pluginId(), e.type().description(),
                        String.join(", ", e.type().aliases())))
                .toList();
        templates.render(x, 200, "webhookevents.jte", new WebhookViews.CatalogPage(console.chrome(x, "Event catalog", HOME),
                entries));
    }

    void notices(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.VIEW_WEBHOOKS);
        int page = pageNumber(x);
        long offset = (long) (page - 1) * NOTICES_PER_PAGE;
        var found = inWorkspace(session, tx -> Map.entry(webhooks.notices(tx, NOTICES_PER_PAGE, offset),
                webhooks.noticeCount(tx)));
        List<WebhookViews.NoticeRow> rows = found.getKey().stream()
                .map(n -> new WebhookViews.NoticeRow(time(n.get("created_at")), (String) n.get("kind"),
                        (UUID) n.get("subject_id"), (String) n.get("recipient"), (String) n.get("message"),
                        n.get("emailed_at") == null ? "not e-mailed" : time(n.get("emailed_at"))))
                .toList();
        templates.render(x, 200, "webhooknotices.jte", new WebhookViews.NoticesPage(console.chrome(x, "Webhook notices", HOME),
                rows, page, offset + rows.size() < found.getValue(), found.getValue()));
    }

    void show(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.VIEW_WEBHOOKS);
        UUID id = Ids.parse(x.pathParam("id"));
        if (id == null) {
            notFound(x, "No such subscription", "This workspace has no webhook subscription with that id.");
            return;
        }
        String requeued = x.query("requeued");
        String message = doneMessage(x);
        if (requeued != null && requeued.matches("\\d{1,9}")) {
            message = requeued + (requeued.equals("1") ? " failed delivery is" : " failed deliveries are")
                    + " queued again.";
        }
        renderOne(x, session, id, 200, null, List.of(), message);
    }

    void update(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_WEBHOOKS);
        x.checkPost(session.csrfToken());
        UUID id = Ids.parse(x.pathParam("id"));
        var submitted = submittedForm(x, false);
        Subscription updated;
        try {
            ObjectNode body = body(submitted);
            webhooks.checkShape(body, true);
            updated = inWorkspace(session, tx -> webhooks.update(tx, requireId(id), body));
        } catch (ApiProblem problem) {
            if (problem.status() == 404) {
                throw problem;
            }
            renderOne(x, session, id, 400, submitted.withErrors(fieldErrors(problem)), formErrors(problem), null);
            return;
        }
        console.activity().record(session, "webhook.updated", target(updated),
                "events " + String.join(", ", updated.events()));
        x.redirect(HOME + "/" + id + "?done=saved");
    }

    void switchOnOrOff(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_WEBHOOKS);
        x.checkPost(session.csrfToken());
        UUID id = Ids.parse(x.pathParam("id"));
        String wanted = x.form("enabled");
        if (!"true".equals(wanted) && !"false".equals(wanted)) {
            throw new PageExchange.BadForm("Enabled: the form must say true or false.");
        }
        ObjectNode body = Json.object();
        body.put("enabled", Boolean.parseBoolean(wanted));
        var updated = inWorkspace(session, tx -> webhooks.update(tx, requireId(id), body));
        console.activity().record(session, updated.enabled() ? "webhook.switched_on" : "webhook.switched_off",
                target(updated), null);
        x.redirect(HOME + "/" + id + "?done=" + (updated.enabled() ? "on" : "off"));
    }

    void delete(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_WEBHOOKS);
        x.checkPost(session.csrfToken());
        UUID id = Ids.parse(x.pathParam("id"));
        if (!"yes".equals(x.form("confirm"))) {
            renderOne(x, session, id, 400, null,
                    List.of("Delete: tick \"Delete this subscription and its delivery history\" to confirm."), null);
            return;
        }
        var deleted = inWorkspace(session, tx -> {
            var subscription = webhooks.find(tx, requireId(id));
            webhooks.delete(tx, subscription.id());
            return subscription;
        });
        console.activity().record(session, "webhook.deleted", target(deleted), null);
        x.redirect(HOME);
    }

    void rotateSecret(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_WEBHOOKS);
        x.checkPost(session.csrfToken());
        UUID id = Ids.parse(x.pathParam("id"));
        var rotated = inWorkspace(session, tx -> Map.entry(webhooks.find(tx, requireId(id)),
                webhooks.rotateSecret(tx, requireId(id))));
        var subscription = rotated.getKey();
        console.activity().record(session, "webhook.secret_rotated", target(subscription),
                "previous secret signs until " + ConsoleTime.format(rotated.getValue().previousSecretExpiresAt()));
        templates.render(x, 201, "webhooksecret.jte", new WebhookViews.SecretPage(console.chrome(x, "New signing secret", HOME),
                subscription.id(), subscription.url(), rotated.getValue().secret(),
                ConsoleTime.format(rotated.getValue().previousSecretExpiresAt())));
    }

    void sendTest(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_WEBHOOKS);
        x.checkPost(session.csrfToken());
        UUID id = Ids.parse(x.pathParam("id"));
        var sent = inWorkspace(session, tx -> Map.entry(webhooks.find(tx, requireId(id)),
                webhooks.sendTest(tx, requireId(id))));
        console.activity().record(session, "webhook.test_sent", target(sent.getKey()), "delivery " + sent.getValue());
        x.redirect(HOME + "/" + id + "/deliveries/" + sent.getValue() + "?done=test");
    }

    void recover(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_WEBHOOKS);
        x.checkPost(session.csrfToken());
        UUID id = Ids.parse(x.pathParam("id"));
        String sinceText = value(x.form("since"));
        Instant since;
        try {
            since = LocalDateTime.parse(sinceText).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            renderOne(x, session, id, 400, null,
                    List.of("Since: give a date and time in UTC, e.g. 2026-01-31T09:30."), null);
            return;
        }
        var recovered = inWorkspace(session, tx -> Map.entry(webhooks.find(tx, requireId(id)),
                webhooks.recover(tx, requireId(id), since)));
        console.activity().record(session, "webhook.recovered", target(recovered.getKey()),
                recovered.getValue() + " failed deliveries since " + ConsoleTime.format(since) + " queued again");
        x.redirect(HOME + "/" + id + "?requeued=" + recovered.getValue());
    }

    void delivery(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.VIEW_WEBHOOKS);
        renderDelivery(x, session, 200, List.of(), doneMessage(x));
    }

    void redeliver(PageExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_WEBHOOKS);
        x.checkPost(session.csrfToken());
        UUID id = Ids.parse(x.pathParam("id"));
        UUID deliveryId = Ids.parse(x.pathParam("delivery"));
        Subscription subscription;
        try {
            subscription = inWorkspace(session, tx -> {
                var found = webhooks.find(tx, requireId(id));
                webhooks.redeliver(tx, found.id(), requireDelivery(deliveryId));
                return found;
            });
        } catch (ApiProblem problem) {
            if (problem.status() != 409) {
                throw problem;
            }
            renderDelivery(x, session, 409, List.of(problem.detail()), null);
            return;
        }
        console.activity().record(session, "webhook.redelivered", target(subscription), "delivery " + deliveryId);
        x.redirect(HOME + "/" + id + "/deliveries/" + deliveryId + "?done=redelivered");
    }

    /**
     * Runs {@code work} in the signed-in user's workspace transaction. A subscription or delivery that is not
     * there (or belongs to another workspace) becomes a readable 404 page.
     */
    private <R> R inWorkspace(ConsoleSession session, PluginContext.WorkspaceWork<R> work) {
        try {
            return transactions.inWorkspace(session.workspaceId(), work);
        } catch (ApiProblem problem) {
            if (problem.status() == 404) {
                throw new ConsolePages.NotFound(problem.detail() + ".", HOME, "Back to webhooks");
            }
            throw problem;
        }
    }

    private void renderList(PageExchange x, ConsoleSession session, int status, WebhookViews.Form form,
            List<String> errors) {
        var found = inWorkspace(session, tx -> Map.entry(webhooks.list(tx, LIST_LIMIT, 0), Map.entry(
                webhooks.count(tx), webhooks.noticeCount(tx))));
        List<WebhookViews.Row> rows = found.getKey().stream().map(WebhookPages::row).toList();
        templates.render(x, status, "webhooks.jte", new WebhookViews.ListPage(console.chrome(x, "Webhooks", HOME), rows, form,
                errors, found.getValue().getKey(), found.getValue().getValue()));
    }

    private void renderOne(PageExchange x, ConsoleSession session, UUID id, int status,
            WebhookViews.Form submitted, List<String> errors, String done) {
        String state = value(x.query("status"));
        List<String> problems = new ArrayList<>(errors);
        if (!state.isEmpty() && !WebhookRoutes.STATES.contains(state)) {
            problems.add("Status: choose " + String.join(", ", WebhookRoutes.STATES) + " or all deliveries.");
            state = "";
            status = 400;
        }
        int page = pageNumber(x);
        long offset = (long) (page - 1) * DELIVERIES_PER_PAGE;
        Optional<String> filter = state.isEmpty() ? Optional.empty() : Optional.of(state);
        record Found(Subscription subscription, List<Map<String, Object>> deliveries, long total) {
        }
        var found = inWorkspace(session, tx -> new Found(webhooks.find(tx, requireId(id)),
                webhooks.deliveries(tx, requireId(id), filter, DELIVERIES_PER_PAGE, offset),
                webhooks.deliveryCount(tx, requireId(id), filter)));
        var form = submitted != null ? submitted : formOf(session, found.subscription());
        List<Choice> states = new ArrayList<>();
        states.add(new Choice("", "All deliveries", state.isEmpty()));
        for (String s : WebhookRoutes.STATES) {
            states.add(new Choice(s, s, s.equals(state)));
        }
        var deliveries = found.deliveries().stream().map(WebhookPages::deliveryRow).toList();
        String recoverSince = LocalDateTime.ofInstant(Instant.now().minusSeconds(24 * 3600), ZoneOffset.UTC)
                .withSecond(0).withNano(0).toString();
        templates.render(x, status, "webhook.jte", new WebhookViews.SubscriptionPage(
                console.chrome(x, found.subscription().url(), HOME), row(found.subscription()), form, problems, done,
                deliveries, states, state, page, offset + deliveries.size() < found.total(), found.total(),
                recoverSince));
    }

    private void renderDelivery(PageExchange x, ConsoleSession session, int status, List<String> errors,
            String done) {
        UUID id = Ids.parse(x.pathParam("id"));
        UUID deliveryId = Ids.parse(x.pathParam("delivery"));
        var found = inWorkspace(session, tx -> Map.entry(webhooks.find(tx, requireId(id)),
                webhooks.delivery(tx, requireId(id), requireDelivery(deliveryId))));
        Map<String, Object> d = found.getValue();
        List<WebhookViews.AttemptRow> attempts = new ArrayList<>();
        if (d.get("attempt_history") instanceof List<?> history) {
            for (Object item : history) {
                @SuppressWarnings("unchecked")
                Map<String, Object> a = (Map<String, Object>) item;
                attempts.add(new WebhookViews.AttemptRow((Integer) a.get("attempt"), time(a.get("at")),
                        (Integer) a.get("duration_ms"), a.get("status_code") == null ? "none" : a.get("status_code").toString(),
                        (String) a.get("outcome"), (String) a.get("error"), (String) a.get("response_body"),
                        Boolean.TRUE.equals(a.get("response_truncated"))));
            }
        }
        templates.render(x, status, "webhookdelivery.jte", new WebhookViews.DeliveryPage(
                console.chrome(x, "Delivery " + deliveryId, HOME), found.getKey().id(), found.getKey().url(),
                deliveryRow(d), time(d.get("occurred_at")), time(d.get("next_attempt_at")), time(d.get("completed_at")),
                attempts, errors, done));
    }

    private void notFound(PageExchange x, String heading, String text) {
        console.renderNotice(x, 404, heading, text, HOME, "All subscriptions");
    }

    /** The form as sent: checked catalog events plus the other names (wildcards, aliases), comma-separated. */
    private WebhookViews.Form submittedForm(PageExchange x, boolean enabled) {
        Set<String> checked = new LinkedHashSet<>(x.formValues("events"));
        var choices = eventChoices(x.requireWorkspaceSession(), checked);
        // A checked name that is no box here (a module switched off meanwhile) goes with the other names, so the
        // service refuses it by name instead of the form dropping it.
        choices.forEach(c -> checked.remove(c.name()));
        String other = value(x.form("other_events"));
        if (!checked.isEmpty()) {
            other = String.join(", ", checked) + (other.isBlank() ? "" : ", " + other);
        }
        return new WebhookViews.Form(value(x.form("url")), choices, other, value(x.form("description")), enabled);
    }

    /** The JSON body the API would receive for this form; checked by the same schema and rules. */
    private static ObjectNode body(WebhookViews.Form form) {
        ObjectNode body = Json.object();
        body.put("url", form.url());
        ArrayNode events = body.putArray("events");
        form.events().stream().filter(WebhookViews.EventChoice::selected).forEach(e -> events.add(e.name()));
        Arrays.stream(form.otherEvents().split(",")).map(String::strip).filter(s -> !s.isEmpty()).forEach(events::add);
        if (form.description().isEmpty()) {
            body.putNull("description");
        } else {
            body.put("description", form.description());
        }
        return body;
    }

    private WebhookViews.Form emptyForm(ConsoleSession session) {
        return new WebhookViews.Form("", eventChoices(session, Set.of()), "", "", true);
    }

    private WebhookViews.Form formOf(ConsoleSession session, Subscription s) {
        var choices = eventChoices(session, Set.copyOf(s.events()));
        Set<String> boxes = new LinkedHashSet<>();
        choices.forEach(c -> boxes.add(c.name()));
        List<String> other = s.events().stream().filter(e -> !boxes.contains(e)).toList();
        return new WebhookViews.Form(s.url(), choices, String.join(", ", other),
                s.description() == null ? "" : s.description(), s.enabled());
    }

    /**
     * A box per event of the workspace's catalog (its modules that are on) but the test event, which only "Send
     * test event" sends.
     */
    private List<WebhookViews.EventChoice> eventChoices(ConsoleSession session, Set<String> selected) {
        return inWorkspace(session, webhooks::events).stream()
                .filter(e -> !e.type().name().equals(EventCatalog.TEST_EVENT.name()))
                .map(e -> new WebhookViews.EventChoice(e.type().name(), e.pluginId(), e.type().description(),
                        selected.contains(e.type().name())))
                .toList();
    }

    /** The form's inputs by the pointer of the API field they fill, with the label a person sees. */
    private static final List<Map.Entry<String, Map.Entry<String, String>>> INPUTS = List.of(
            Map.entry("/url", Map.entry("url", "Receiver URL")),
            Map.entry("/events", Map.entry("events", "Events")),
            Map.entry("/description", Map.entry("description", "Description")),
            Map.entry("/enabled", Map.entry("enabled", "Switched on")));

    /**
     * Each refused field's message, "Label: what is wrong", by the id of the input it belongs to, in the form's
     * order (several errors of one field are joined).
     */
    static Map<String, String> fieldErrors(ApiProblem problem) {
        Map<String, String> byInput = new java.util.LinkedHashMap<>();
        for (var input : INPUTS) {
            String pointer = input.getKey();
            List<String> found = problem.errors().stream()
                    .filter(e -> e.pointer().equals(pointer) || e.pointer().startsWith(pointer + "/"))
                    .map(WebhookPages::friendly).distinct().toList();
            if (!found.isEmpty()) {
                byInput.put(input.getValue().getKey(), input.getValue().getValue() + ": " + String.join("; ", found));
            }
        }
        return byInput;
    }

    /** What the problem says that belongs to no input of the form: its detail when it names no field. */
    static List<String> formErrors(ApiProblem problem) {
        if (problem.errors().isEmpty()) {
            return List.of(problem.detail());
        }
        return problem.errors().stream()
                .filter(e -> INPUTS.stream().noneMatch(i -> e.pointer().equals(i.getKey())
                        || e.pointer().startsWith(i.getKey() + "/")))
                .map(e -> (e.pointer().isEmpty() ? "Form" : e.pointer().substring(1)) + ": " + friendly(e))
                .toList();
    }

    private static String friendly(FieldError error) {
        return switch (error.pointer() + " " + error.rule()) {
            case "/events minItems" -> "choose at least one event, or write a wildcard such as crm.* or *";
            case "/url minLength" -> "give the address the events are sent to";
            case "/url maxLength" -> "the address is longer than 2048 characters";
            case "/description maxLength" -> "write at most 500 characters";
            default -> error.message().replace("; GET /api/v1/webhooks/events lists them", " (see the event catalog)");
        };
    }

    private static WebhookViews.Row row(Subscription s) {
        return new WebhookViews.Row(s.id(), s.url(), String.join(", ", s.events()), s.description(), s.enabled(),
                s.disabledReason(), s.failingSince() == null ? null : ConsoleTime.format(s.failingSince()),
                ConsoleTime.format(s.createdAt()));
    }

    private static WebhookViews.DeliveryRow deliveryRow(Map<String, Object> d) {
        Object code = d.get("last_status_code");
        String error = (String) d.get("last_error");
        String last = code == null && error == null ? "not tried yet"
                : (code == null ? "no response" : "HTTP " + code) + (error == null ? "" : ": " + error);
        return new WebhookViews.DeliveryRow((UUID) d.get("id"), (String) d.get("event"),
                Boolean.TRUE.equals(d.get("test")), (String) d.get("status"), (Integer) d.get("attempts"),
                time(d.get("created_at")), time(d.get("last_attempt_at")), last);
    }

    private static String time(Object instant) {
        return ConsoleTime.format((Instant) instant);
    }

    private static UUID requireId(UUID id) {
        if (id == null) {
            throw ApiProblem.notFound("Webhook subscription");
        }
        return id;
    }

    private static UUID requireDelivery(UUID id) {
        if (id == null) {
            throw ApiProblem.notFound("Delivery");
        }
        return id;
    }

    /** The message for {@code ?done=}, or null for none or an unknown key. */
    private static String doneMessage(PageExchange x) {
        String key = x.query("done");
        return key == null ? null : DONE.get(key);
    }

    private static int pageNumber(PageExchange x) {
        String text = x.query("page");
        if (text == null || !text.matches("\\d{1,6}") || Integer.parseInt(text) < 1) {
            return 1;
        }
        return Integer.parseInt(text);
    }

    private static String target(Subscription s) {
        return s.url() + " (" + s.id() + ")";
    }

    private static String value(String s) {
        return s == null ? "" : s.strip();
    }
}
