package dev.lnp.testkit.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.pages.BoardView;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.Filter;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRegistrar;
import dev.lnp.api.pages.PageRoute;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The probe's pages of the page API over its desk items, for the web layer's tests: a list with a search, a choice
 * filter, sort and pages; a detail page; an edit form with the console section's edit schema; a board by kind whose
 * moves a rule can refuse; and a page of the administration. {@link ProbeDesk} adds creating and the item's buttons.
 */
final class ProbePages {

    static final String ITEMS = "/app/probe/items";
    private static final JsonNode EDIT = Json.resource(ProbePages.class, "schemas/desk-edit.json");
    private static final JsonNode KIND = Json.resource(ProbePages.class, "schemas/desk-kind.json");

    void register(PageRegistrar r) {
        r.page(PageRoute.view(ITEMS).scope("probe.read").nav("Probe", "Items").renderer(this::list));
        // The search box's source: items by title; "refuse" is refused as a source may refuse a text, "break" fails.
        r.search(new dev.lnp.api.pages.PageSearch("Probe items", "probe.read", (call, text, limit) -> {
            if (text.equals("refuse")) throw new ApiProblem(400, "invalid_query", "Bad Request", "The probe refuses this.");
            if (text.equals("break")) throw new IllegalStateException("the probe's search broke");
            return call.tx().handle().createQuery("SELECT id, title, kind FROM probe.desk_items"
                            + " WHERE workspace_id = :ws AND title ILIKE '%' || :text || '%' ORDER BY title LIMIT " + (limit + 3))
                    .bind("ws", call.workspaceId()).bind("text", text)
                    .map((rs, ctx) -> new dev.lnp.api.pages.SearchHit(rs.getString("title"), "kind " + rs.getString("kind"),
                            ITEMS + "/" + rs.getObject("id")))
                    .list();
        }));
        r.page(PageRoute.view("/app/probe/board").scope("probe.read").nav("Probe", "Board").liveOn("probe.*")
                .renderer(this::board));
        r.page(PageRoute.view(ITEMS + "/{id}").scope("probe.read").renderer(this::detail));
        r.page(PageRoute.view(ITEMS + "/{id}/edit").scope("probe.write").renderer(this::editForm));
        r.page(PageRoute.action(ITEMS + "/{id}/edit").scope("probe.write").form(EDIT).action(this::save));
        r.page(PageRoute.action(ITEMS + "/{id}/kind").scope("probe.write").form(KIND).action(this::move));
        r.page(PageRoute.view("/console/probe/overview").scope("probe.read").nav("Probe", "Overview")
                .renderer(call -> DetailView.of("Probe overview", List.of(new DetailView.Field("Items",
                        String.valueOf(call.tx().handle().createQuery(
                                "SELECT count(*) FROM probe.desk_items WHERE workspace_id = :ws")
                                .bind("ws", call.workspaceId()).mapTo(Long.class).one()))))));
        // How the tests see a renderer's own refusal (its status kept) and a renderer that fails (the error page).
        r.page(PageRoute.view("/console/probe/failing/{how}").scope("probe.read").renderer(call -> {
            if (call.pathParam("how").equals("archived")) {
                throw new ApiProblem(410, "archived", "Archived", "This item was archived and can no longer be shown.");
            }
            throw new IllegalStateException("the probe's page failed as asked");
        }));
    }

    private ListView list(PageCall call) {
        String order = switch (call.query("sort").orElse("")) {
            case "title" -> "lower(title), id";
            case "-title" -> "lower(title) DESC, id";
            case "-created" -> "created_at DESC, id";
            default -> "created_at, id";
        };
        String search = call.query("q").orElse(null);
        String kind = call.query("kind").orElse(null);
        int limit = call.page().limit();
        List<ObjectNode> rows = call.tx().handle().createQuery("""
                        SELECT id, title, kind, created_at FROM probe.desk_items
                         WHERE workspace_id = :ws AND (CAST(:q AS text) IS NULL OR strpos(lower(title), lower(:q)) > 0)
                           AND (CAST(:kind AS text) IS NULL OR kind = :kind)
                         ORDER BY""" + " " + order + " LIMIT :limit OFFSET :offset")
                .bind("ws", call.workspaceId()).bind("q", search).bind("kind", kind)
                .bind("limit", limit + 1).bind("offset", call.page().offset())
                .map((rs, c) -> {
                    ObjectNode row = Json.object();
                    row.put("id", rs.getString("id"));
                    row.put("title", rs.getString("title"));
                    row.put("kind", rs.getString("kind"));
                    row.put("created_at", rs.getObject("created_at", java.time.OffsetDateTime.class).toString());
                    return row;
                }).list();
        boolean more = rows.size() > limit;
        return new ListView("Items", List.of(
                        Column.of("Title", "title").linkedTo(ITEMS + "/{id}").sortable("title"),
                        Column.of("Kind", "kind"),
                        Column.of("Created", "created_at").sortable("created")),
                List.of(Filter.search("q", "Title contains"), Filter.choice("kind", "Kind",
                        List.of(new Filter.Choice("a", "Kind A"), new Filter.Choice("b", "Kind B")))),
                more ? rows.subList(0, limit) : rows, more,
                call.may("probe.write") ? call.role().equals("member") ? List.of(Link.to("Board", "/app/probe/board"))
                        : List.of(Link.to("Board", "/app/probe/board"), Link.to("New item", ITEMS + "/new")) : List.of(),
                "No items match.");
    }

    static ObjectNode find(PageCall call, UUID id) {
        return call.tx().handle().createQuery("""
                        SELECT id, title, kind, pinned, copies, tags, key_hash IS NOT NULL AS key_set
                          FROM probe.desk_items WHERE workspace_id = :ws AND id = :id
                        """)
                .bind("ws", call.workspaceId()).bind("id", id)
                .map((rs, c) -> {
                    ObjectNode row = Json.object();
                    row.put("id", rs.getString("id"));
                    row.put("title", rs.getString("title"));
                    row.put("kind", rs.getString("kind"));
                    row.put("pinned", rs.getBoolean("pinned"));
                    Object copies = rs.getObject("copies");
                    if (copies != null) {
                        row.put("copies", ((Number) copies).intValue());
                    }
                    var tags = row.putArray("tags");
                    for (String tag : (String[]) rs.getArray("tags").getArray()) {
                        tags.add(tag);
                    }
                    row.put("key_set", rs.getBoolean("key_set"));
                    return row;
                }).findOne().orElseThrow(() -> ApiProblem.notFound("The item"));
    }

    private DetailView detail(PageCall call) {
        UUID id = call.pathId("id");
        ObjectNode item = find(call, id);
        DetailView view = DetailView.of(item.path("title").asText(), List.of(
                new DetailView.Field("Kind", item.path("kind").asText()),
                new DetailView.Field("Pinned", item.path("pinned").asBoolean() ? "yes" : "no"),
                new DetailView.Field("Copies", item.has("copies") ? item.get("copies").asText() : null),
                new DetailView.Field("Tags", String.join(", ", Json.mapper().convertValue(item.get("tags"),
                        String[].class))),
                new DetailView.Field("Key", item.path("key_set").asBoolean() ? "yes" : "no"),
                new DetailView.Field("Summary", null)));
        List<Link> actions = new ArrayList<>();
        if (call.may("probe.write")) {
            actions.add(Link.to("Edit", ITEMS + "/" + id + "/edit"));
        }
        actions.addAll(ProbeDesk.buttons(call, item));
        return view.actions(actions.toArray(Link[]::new));
    }

    private FormView editForm(PageCall call) {
        UUID id = call.pathId("id");
        ObjectNode item = find(call, id);
        ObjectNode values = Json.object().put("title", item.path("title").asText())
                .put("pinned", item.path("pinned").asBoolean());
        return new FormView("Edit " + item.path("title").asText(), EDIT, values, "Save", ITEMS + "/" + id);
    }

    private PageOutcome save(PageCall call, ObjectNode values) {
        UUID id = call.pathId("id");
        find(call, id);
        boolean taken = call.tx().handle().createQuery("""
                        SELECT EXISTS (SELECT 1 FROM probe.desk_items WHERE workspace_id = :ws
                                          AND lower(title) = lower(:t) AND id <> :id)
                        """)
                .bind("ws", call.workspaceId()).bind("t", values.get("title").asText()).bind("id", id)
                .mapTo(Boolean.class).one();
        if (taken) {
            throw ApiProblem.invalidField("/title", "unique", "An item with this title exists already.");
        }
        call.tx().handle().createUpdate("""
                        UPDATE probe.desk_items SET title = :t, pinned = :p WHERE workspace_id = :ws AND id = :id
                        """)
                .bind("ws", call.workspaceId()).bind("id", id).bind("t", values.get("title").asText())
                .bind("p", values.path("pinned").asBoolean(false)).execute();
        return PageOutcome.goTo(ITEMS + "/" + id, "The item was saved.");
    }

    /** A pinned item stays where it is: the rule a board's move must respect, as a deal's transitions do. */
    private PageOutcome move(PageCall call, ObjectNode values) {
        UUID id = call.pathId("id");
        ObjectNode item = find(call, id);
        if (item.path("pinned").asBoolean()) {
            throw ApiProblem.conflict("pinned", "A pinned item cannot change its kind; unpin it first.");
        }
        call.tx().handle().createUpdate("UPDATE probe.desk_items SET kind = :k WHERE workspace_id = :ws AND id = :id")
                .bind("ws", call.workspaceId()).bind("id", id).bind("k", values.get("kind").asText()).execute();
        return PageOutcome.goTo("/app/probe/board", "Moved to kind " + values.get("kind").asText() + ".");
    }

    private BoardView board(PageCall call) {
        List<BoardView.Card> cards = new ArrayList<>();
        boolean canMove = call.may("probe.write");
        call.tx().handle().createQuery("""
                        SELECT id, title, kind, pinned FROM probe.desk_items WHERE workspace_id = :ws
                         ORDER BY created_at, id LIMIT 200
                        """)
                .bind("ws", call.workspaceId())
                .map((rs, c) -> new BoardView.Card(rs.getString("id"), rs.getString("kind"), rs.getString("title"),
                        rs.getBoolean("pinned") ? "Pinned" : null, ITEMS + "/" + rs.getString("id"),
                        canMove ? ITEMS + "/" + rs.getString("id") + "/kind" : null))
                .forEach(cards::add);
        return new BoardView("Board", "kind", List.of(new BoardView.Lane("a", "Kind A"), new BoardView.Lane("b", "Kind B")),
                cards, List.of(Link.to("List", ITEMS)));
    }
}
