package dev.lnp.testkit.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.Registrar;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.RawRequest;
import dev.lnp.api.http.RawResponse;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.people.Html;
import dev.lnp.api.internal.people.PageVisitor;
import dev.lnp.api.internal.people.PeoplePages;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRegistrar;
import dev.lnp.api.pages.PageRoute;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * The probe's desk pages beside {@link ProbePages}: a generated create form, buttons narrowed to a role (rotate the
 * item's key, shown once; pin; check; delete, owners only), and an item's notes with a form of their own; and its
 * page for people ({@code /api/probe/approve}), for the core's page and people-page tests.
 */
final class ProbeDesk {

    static final String ITEMS = ProbePages.ITEMS;
    private static final JsonNode CREATE = Json.resource(ProbeDesk.class, "schemas/desk-create.json");
    private static final JsonNode NOTE = Json.resource(ProbeDesk.class, "schemas/desk-note.json");

    private volatile PeoplePages pages;

    void start(PeoplePages pages) {
        this.pages = pages;
    }

    /** Registered before {@link ProbePages}: {@code /new} must match before {@code /{id}}. */
    void register(Registrar registrar) {
        PageRegistrar r = PageRegistrar.of(registrar);
        r.page(PageRoute.view(ITEMS + "/new").scope("probe.write").role("admin").renderer(call ->
                new FormView("New item", CREATE, Json.object(), "Create item", ITEMS)));
        r.page(PageRoute.action(ITEMS + "/new").scope("probe.write").role("admin").form(CREATE).action(this::create));
        r.page(PageRoute.action(ITEMS + "/{id}/rotate-key").scope("probe.write").role("admin").button()
                .action(this::rotateKey));
        r.page(PageRoute.action(ITEMS + "/{id}/pin").scope("probe.write").role("admin").button()
                .action(this::pin));
        r.page(PageRoute.action(ITEMS + "/{id}/check").scope("probe.write").role("admin").button()
                .action(this::check));
        r.page(PageRoute.action(ITEMS + "/{id}/delete").scope("probe.write").role("owner").button()
                .action(this::delete));
        r.page(PageRoute.view(ITEMS + "/{id}/notes").scope("probe.read").renderer(this::notes));
        r.page(PageRoute.view(ITEMS + "/{id}/notes/new").scope("probe.write").renderer(call -> {
            ObjectNode item = ProbePages.find(call, call.pathId("id"));
            return new FormView("New note on " + item.path("title").asText(), NOTE, Json.object(), "Add note",
                    ITEMS + "/" + item.path("id").asText() + "/notes");
        }));
        r.page(PageRoute.action(ITEMS + "/{id}/notes/new").scope("probe.write").form(NOTE).action(this::createNote));
        registrar.route(RouteSpec.get("/api/probe/approve").publicRoute().raw(this::approvePage));
        registrar.route(RouteSpec.post("/api/probe/approve").publicRoute().raw(this::approvePost));
    }

    /** The buttons of an item's page for this person: each only to the roles its action admits, while it applies. */
    static List<Link> buttons(PageCall call, ObjectNode item) {
        String row = ITEMS + "/" + item.path("id").asText();
        List<Link> links = new ArrayList<>();
        links.add(Link.to("Notes", row + "/notes"));
        if (!call.role().equals("member")) {
            links.add(Link.post("Rotate key", row + "/rotate-key", "The item's current key stops working at once."));
            if (!item.path("pinned").asBoolean()) {
                links.add(Link.post("Pin", row + "/pin", null));
            }
            links.add(Link.post("Check", row + "/check", null));
        }
        if (call.role().equals("owner")) {
            links.add(Link.post("Delete", row + "/delete", "The item and its notes are deleted."));
        }
        return links;
    }

    private boolean titleTaken(PageCall call, String title) {
        return call.tx().handle().createQuery("""
                        SELECT EXISTS (SELECT 1 FROM probe.desk_items WHERE workspace_id = :ws AND lower(title) = lower(:t))
                        """)
                .bind("ws", call.workspaceId()).bind("t", title).mapTo(Boolean.class).one();
    }

    private static String[] tags(JsonNode values) {
        List<String> tags = new ArrayList<>();
        values.path("tags").forEach(t -> tags.add(t.asText()));
        return tags.toArray(String[]::new);
    }

    private PageOutcome create(PageCall call, ObjectNode values) {
        String title = values.get("title").asText();
        if (titleTaken(call, title)) {
            throw ApiProblem.invalidField("/title", "unique", "An item with this title exists already.");
        }
        UUID id = call.tx().handle().createQuery("""
                        INSERT INTO probe.desk_items (workspace_id, title, kind, pinned, copies, tags, contact, summary)
                        VALUES (:ws, :title, :kind, :pinned, :copies, :tags, :contact, :summary) RETURNING id
                        """)
                .bind("ws", call.workspaceId()).bind("title", title).bind("kind", values.get("kind").asText())
                .bind("pinned", values.path("pinned").asBoolean(false))
                .bind("copies", values.has("copies") ? values.get("copies").asInt() : null)
                .bind("tags", tags(values)).bind("contact", values.path("contact").textValue())
                .bind("summary", values.path("summary").textValue())
                .mapTo(UUID.class).one();
        return PageOutcome.goTo(ITEMS + "/" + id, "The item was created.");
    }

    private PageOutcome rotateKey(PageCall call, ObjectNode values) throws Exception {
        UUID id = call.pathId("id");
        ProbePages.find(call, id);
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        String key = "desk_" + HexFormat.of().formatHex(random);
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes()));
        call.tx().handle().createUpdate("UPDATE probe.desk_items SET key_hash = :h WHERE workspace_id = :ws AND id = :id")
                .bind("h", hash).bind("ws", call.workspaceId()).bind("id", id).execute();
        return PageOutcome.goTo(ITEMS + "/" + id, "Send the key as X-Desk-Key. The previous key no longer works.")
                .showingOnce("Item key", key, null);
    }

    private PageOutcome pin(PageCall call, ObjectNode values) {
        ObjectNode item = ProbePages.find(call, call.pathId("id"));
        if (item.path("pinned").asBoolean()) {
            throw ApiProblem.conflict("pinned", "The item is pinned already.");
        }
        call.tx().handle().createUpdate("UPDATE probe.desk_items SET pinned = true WHERE workspace_id = :ws AND id = :id")
                .bind("ws", call.workspaceId()).bind("id", call.pathId("id")).execute();
        return PageOutcome.goTo(ITEMS + "/" + call.pathId("id"), "The item was pinned.");
    }

    /** A notice of its own when the item has copies; a problem otherwise. */
    private PageOutcome check(PageCall call, ObjectNode values) {
        ObjectNode item = ProbePages.find(call, call.pathId("id"));
        if (!item.hasNonNull("copies")) {
            throw ApiProblem.conflict("not_checkable", "This item cannot be checked right now.");
        }
        return PageOutcome.goTo(ITEMS + "/" + call.pathId("id"),
                "Checked: " + item.get("copies").asInt() + " copies present.");
    }

    private PageOutcome delete(PageCall call, ObjectNode values) {
        ProbePages.find(call, call.pathId("id"));
        call.tx().handle().createUpdate("DELETE FROM probe.desk_items WHERE workspace_id = :ws AND id = :id")
                .bind("ws", call.workspaceId()).bind("id", call.pathId("id")).execute();
        return PageOutcome.goTo(ITEMS, "The item was deleted.");
    }

    private ListView notes(PageCall call) {
        ObjectNode item = ProbePages.find(call, call.pathId("id"));
        UUID id = call.pathId("id");
        int limit = call.page().limit();
        List<ObjectNode> rows = call.tx().handle().createQuery("""
                        SELECT id, body, created_at FROM probe.desk_notes WHERE workspace_id = :ws AND item_id = :item
                         ORDER BY created_at, id LIMIT :limit OFFSET :offset
                        """)
                .bind("ws", call.workspaceId()).bind("item", id)
                .bind("limit", limit + 1).bind("offset", call.page().offset())
                .map((rs, c) -> {
                    ObjectNode row = Json.object();
                    row.put("id", rs.getString("id"));
                    row.put("body", rs.getString("body"));
                    row.put("created_at", rs.getObject("created_at", java.time.OffsetDateTime.class).toString());
                    return row;
                }).list();
        boolean more = rows.size() > limit;
        ListView list = ListView.of("Notes on " + item.path("title").asText(),
                        List.of(Column.of("Note", "body"), Column.of("Written", "created_at")),
                        more ? rows.subList(0, limit) : rows, more)
                .emptyText("No notes on this item yet.");
        List<Link> links = new ArrayList<>(List.of(Link.to("Back to the item", ITEMS + "/" + id)));
        if (call.may("probe.write")) {
            links.add(Link.to("New note", ITEMS + "/" + id + "/notes/new"));
        }
        return list.actions(links.toArray(Link[]::new));
    }

    private PageOutcome createNote(PageCall call, ObjectNode values) {
        UUID id = call.pathId("id");
        ProbePages.find(call, id);
        call.tx().handle().createUpdate("""
                        INSERT INTO probe.desk_notes (workspace_id, item_id, body) VALUES (:ws, :item, :body)
                        """)
                .bind("ws", call.workspaceId()).bind("item", id).bind("body", values.get("body").asText()).execute();
        return PageOutcome.goTo(ITEMS + "/" + id + "/notes", "The note was added.");
    }

    // ---- the page for people: approve something addressed to one e-mail address

    private static String self(RawRequest req, String email) {
        return req.path() + "?for=" + Html.urlEncode(email);
    }

    private RawResponse approvePage(RawRequest req) {
        PageVisitor v = pages.visitor(req);
        String email = req.query("for").orElse("");
        if (email.isBlank()) {
            return v.notice(400, "Nothing to approve", "This address names no request (for= is missing).");
        }
        var person = v.person();
        if (person.isEmpty()) {
            return v.page(200, "Approve the request", "<h1>Approve the request</h1>"
                    + "<p class=\"lead\">This request is for <strong>" + Html.escape(email) + "</strong>. Sign in with "
                    + "that address to approve or deny it.</p>"
                    + "<form method=\"post\" action=\"" + Html.escape(self(req, email)) + "\">" + v.csrfField()
                    + "<input type=\"hidden\" name=\"do\" value=\"sign-in\">"
                    + "<button type=\"submit\">E-mail me a sign-in link</button></form>");
        }
        if (!v.isSignedInAs(email)) {
            return v.page(200, "Approve the request", "<h1>Approve the request</h1>"
                    + "<p class=\"lead\">You are signed in as <strong>" + Html.escape(person.get().email())
                    + "</strong>, but this request is for <strong>" + Html.escape(email) + "</strong>.</p>"
                    + "<form method=\"post\" action=\"" + Html.escape(self(req, email)) + "\">" + v.csrfField()
                    + "<input type=\"hidden\" name=\"do\" value=\"sign-in\">"
                    + "<button type=\"submit\">Sign in as " + Html.escape(email) + " instead</button></form>");
        }
        return v.page(200, "Approve the request", "<h1>Approve the request</h1>"
                + "<p class=\"lead\">Signed in as <strong>" + Html.escape(person.get().email()) + "</strong>.</p>"
                + "<form method=\"post\" action=\"" + Html.escape(self(req, email)) + "\" class=\"buttons\">" + v.csrfField()
                + "<button type=\"submit\" name=\"do\" value=\"approve\">Approve</button>"
                + "<button type=\"submit\" name=\"do\" value=\"deny\" class=\"danger\">Deny</button></form>");
    }

    private RawResponse approvePost(RawRequest req) {
        PageVisitor v = pages.visitor(req);
        var refused = v.checkForm();
        if (refused.isPresent()) {
            return refused.get();
        }
        String email = req.query("for").orElse("");
        String action = v.form("do").orElse("");
        if (action.equals("sign-in")) {
            // The probe passes a "return" field through so that the tests can check the core refuses foreign ones.
            return v.startSignIn(email, v.form("return").orElse(self(req, email)));
        }
        if (!v.isSignedInAs(email)) {
            return v.notice(403, "Not signed in as " + email, "Sign in as " + email + " to answer this request.");
        }
        return switch (action) {
            case "approve" -> v.notice(200, "Approved", "You approved the request for " + email + ".");
            case "deny" -> v.notice(200, "Denied", "You denied the request for " + email + ".");
            default -> v.notice(400, "Unknown answer", "Choose Approve or Deny.");
        };
    }
}
