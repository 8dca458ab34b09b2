package dev.lnp.plugins.crm;

import static dev.lnp.plugins.crm.ContactPages.choices;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.pages.FormChanges;
import dev.lnp.api.pages.BoardView;
import dev.lnp.api.pages.BoardView.Card;
import dev.lnp.api.pages.BoardView.Lane;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.Filter;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageSearch;
import dev.lnp.api.pages.PageView;
import dev.lnp.api.pages.SearchHit;
import java.math.BigDecimal;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Deals in the workspace application: the pipeline board by stage (moving a card is the API's PATCH of the stage,
 * with its transition rules), the list, a deal's page and its forms. Everything goes through {@link DealService},
 * as the API and the MCP tools do.
 */
final class DealPages {

    static final String BOARD = "/app/crm/pipeline";
    static final String LIST = "/app/crm/deals";

    private final DealService deals;
    private final CrmSchemas schemas;

    DealPages(DealService deals, CrmSchemas schemas) {
        this.deals = deals;
        this.schemas = schemas;
    }

    /** The search box's deals: every word in the title, most recently changed first, with their stage. */
    PageSearch search() {
        return new PageSearch("Deals", CrmScopes.DEALS_READ, (call, text, limit) ->
                new DealListing(call.tx().handle(), call.workspaceId())
                        .matching(SearchWords.of(text, "?q"), new dev.lnp.api.http.PageRequest(1, limit)).rows().stream()
                        .map(d -> new SearchHit(d.path("title").asText(), CrmLabels.stage(d.path("stage").asText("open")),
                                LIST + "/" + d.path("id").asText()))
                        .toList());
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(BOARD).scope(CrmScopes.DEALS_READ).nav("CRM", "Pipeline")
                        .liveOn("crm.deal.*").renderer(this::board),
                PageRoute.view(LIST).scope(CrmScopes.DEALS_READ).nav("CRM", "Deals")
                        .liveOn("crm.deal.*").renderer(this::list),
                PageRoute.view(LIST + "/new").scope(CrmScopes.DEALS_WRITE).renderer(call -> CrmChoices.dealForm(call,
                        new FormView("New deal", schemas.dealForm, newDeal(call), "Create deal", LIST))),
                PageRoute.action(LIST + "/new").scope(CrmScopes.DEALS_WRITE).form(schemas.dealForm)
                        .action((call, values) -> {
                            ObjectNode deal = deals.create(call.tx(), Actor.member(call.userId()), values);
                            return PageOutcome.goTo(LIST + "/" + deal.get("id").asText(),
                                    "Deal " + deal.get("title").asText() + " created.");
                        }),
                PageRoute.view(LIST + "/{id}").scope(CrmScopes.DEALS_READ).renderer(this::detail),
                PageRoute.view(LIST + "/{id}/edit").scope(CrmScopes.DEALS_WRITE).renderer(call -> {
                    ObjectNode deal = deals.get(call.tx(), call.pathId("id"));
                    return CrmChoices.dealForm(call, new FormView("Edit " + deal.get("title").asText(),
                            schemas.dealEditForm, FormChanges.editable(deal, schemas.dealEditForm), "Save",
                            LIST + "/" + deal.get("id").asText()));
                }),
                PageRoute.action(LIST + "/{id}/edit").scope(CrmScopes.DEALS_WRITE).form(schemas.dealEditForm)
                        .action((call, values) -> {
                            UUID id = call.pathId("id");
                            ObjectNode changes = FormChanges.changes(deals.get(call.tx(), id), values, schemas.dealEditForm);
                            if (changes.isEmpty()) return PageOutcome.goTo(LIST + "/" + id, "Nothing was changed.");
                            ObjectNode deal = deals.update(call.tx(), Actor.member(call.userId()), id, changes);
                            return PageOutcome.goTo(LIST + "/" + id, "Deal " + deal.get("title").asText() + " saved.");
                        }),
                PageRoute.action(LIST + "/{id}/move").scope(CrmScopes.DEALS_WRITE).form(schemas.dealMove)
                        .action((call, values) -> {
                            ObjectNode deal = deals.update(call.tx(), Actor.member(call.userId()), call.pathId("id"), values);
                            return PageOutcome.goTo(BOARD, "Deal " + deal.get("title").asText() + " moved to "
                                    + CrmLabels.stage(deal.get("stage").asText()) + ".");
                        }),
                PageRoute.action(LIST + "/{id}/delete").scope(CrmScopes.DEALS_WRITE).button()
                        .action((call, values) -> {
                            ObjectNode deal = deals.get(call.tx(), call.pathId("id"));
                            deals.delete(call.tx(), Actor.member(call.userId()), call.pathId("id"));
                            return PageOutcome.goTo(LIST, "Deal " + deal.get("title").asText() + " deleted.");
                        }));
    }

    private PageView board(PageCall call) {
        var listing = new DealListing(call.tx().handle(), call.workspaceId());
        Map<String, DealListing.LaneTotal> totals = listing.laneTotals().stream()
                .collect(Collectors.toMap(DealListing.LaneTotal::stage, t -> t));
        List<Lane> lanes = DealListing.STAGES.stream().map(stage -> {
            var total = totals.getOrDefault(stage, new DealListing.LaneTotal(stage, 0, BigDecimal.ZERO));
            return new Lane(stage, CrmLabels.stage(stage), total.count() + (total.count() == 1 ? " deal" : " deals")
                    + (total.value().signum() > 0 ? " · " + money(total.value()) : ""));
        }).toList();
        boolean mayMove = call.may(CrmScopes.DEALS_WRITE);
        List<Card> cards = listing.board().stream().map(deal -> {
            String id = deal.get("id").asText();
            return new Card(id, deal.get("stage").asText(), deal.get("title").asText(), subtitle(deal),
                    LIST + "/" + id, mayMove ? LIST + "/" + id + "/move" : null);
        }).toList();
        List<Link> actions = new ArrayList<>(List.of(Link.to("All deals", LIST)));
        if (mayMove) actions.add(0, Link.to("New deal", LIST + "/new"));
        return new BoardView("Pipeline", "stage", lanes, cards, actions);
    }

    private PageView list(PageCall call) {
        var page = new DealListing(call.tx().handle(), call.workspaceId())
                .page(SearchWords.of(call.query("search").orElse(null), "?search"), call.queryAll("stage"),
                        call.queryAll("status"), null, null, call.page());
        ListView view = new ListView("Deals", columns(), List.of(
                Filter.search("search", "Search"),
                Filter.anyOf("stage", "Stage", choices(schemas.dealCreate, "stage")),
                Filter.anyOf("status", "Status", choices(schemas.dealCreate, "status"))),
                rows(page.rows()), page.hasMore(), List.of(Link.to("Pipeline", BOARD)),
                "No deals match. Clear the filters, or create one.");
        return call.may(CrmScopes.DEALS_WRITE)
                ? view.actions(Link.to("New deal", LIST + "/new"), Link.to("Pipeline", BOARD)) : view;
    }

    static List<Column> columns() {
        return List.of(
                Column.of("Title", "title").linkedTo(LIST + "/{id}"),
                Column.of("Stage", "stage_label"),
                Column.of("Status", "status_label"),
                Column.of("Value", "value"),
                Column.of("Currency", "currency"),
                Column.of("Expected close", "expected_close_date"));
    }

    /** Deal rows as {@link #columns()} shows them: stage and status in words. */
    static List<ObjectNode> rows(List<ObjectNode> deals) {
        return deals.stream().map(CrmLabels::deal).toList();
    }

    private PageView detail(PageCall call) {
        UUID id = call.pathId("id");
        ObjectNode deal = deals.get(call.tx(), id);
        List<Field> fields = RecordFields.fields(deal, schemas.dealCreate);
        List<Link> actions = new ArrayList<>();
        if (deal.hasNonNull("contact_id")) {
            actions.add(Link.to("Contact", ContactPages.LIST + "/" + deal.get("contact_id").asText()));
        }
        if (call.may(CrmScopes.DEALS_WRITE)) {
            actions.add(Link.to("Edit", LIST + "/" + id + "/edit"));
            actions.add(Link.post("Delete", LIST + "/" + id + "/delete", "Delete the deal " + deal.get("title").asText() + "?"));
        }
        var activity = TimelinePages.recent(call, LIST + "/" + id,
                TimelinePages.dealActivity(call, id, TimelinePages.firstPage()), Timeline.Of.DEAL);
        activity.older().ifPresent(actions::add);
        return new DetailView(deal.get("title").asText(), fields, List.of(activity.list()), actions);
    }

    /** A new deal's form starts with the contact it was opened from ({@code ?contact_id=}), if any. */
    private static ObjectNode newDeal(PageCall call) {
        ObjectNode values = Json.object();
        call.query("contact_id").ifPresent(contact -> values.put("contact_id", contact));
        return values;
    }

    private static String subtitle(ObjectNode deal) {
        String value = deal.hasNonNull("value")
                ? money(deal.get("value").decimalValue()) + (deal.hasNonNull("currency") ? " " + deal.get("currency").asText() : "")
                : null;
        String close = deal.hasNonNull("expected_close_date") ? "closes " + deal.get("expected_close_date").asText() : null;
        return java.util.stream.Stream.of(value, close).filter(java.util.Objects::nonNull)
                .collect(Collectors.joining(" · "));
    }

    static String money(BigDecimal value) {
        return NumberFormat.getNumberInstance(Locale.ENGLISH).format(value);
    }
}
