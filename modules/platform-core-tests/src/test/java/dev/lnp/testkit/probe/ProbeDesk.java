package dev.lnp.testkit.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.Registrar;
import dev.lnp.api.console.ActionResult;
import dev.lnp.api.console.ConsoleColumn;
import dev.lnp.api.console.ConsoleRole;
import dev.lnp.api.console.ConsoleSection;
import dev.lnp.api.console.RowAction;
import dev.lnp.api.console.RowPage;
import dev.lnp.api.console.SectionContext;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.RawRequest;
import dev.lnp.api.http.RawResponse;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.people.Html;
import dev.lnp.api.internal.people.PageVisitor;
import dev.lnp.api.internal.people.PeoplePages;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The probe's console section ("Desk": items with a generated create and edit form, row actions, a child section
 * of notes) and its page for people ({@code /api/probe/approve}), for the core's section and people-page tests.
 */
final class ProbeDesk {

    private volatile PeoplePages pages;

    void start(PeoplePages pages) {
        this.pages = pages;
    }

    void register(Registrar r) {
        r.consoleSection(ConsoleSection.builder("desk", "Desk items")
                .group("Probe")
                .description("Items of the probe plugin, to test console sections.")
                .itemName("item")
                .minRole(ConsoleRole.MEMBER)
                .changeRole(ConsoleRole.ADMIN)
                .columns(ConsoleColumn.linked("Title", "title"), ConsoleColumn.of("Kind", "kind"),
                        ConsoleColumn.of("Pinned", "pinned"), ConsoleColumn.of("Tags", "tags"),
                        ConsoleColumn.of("Active", "active"))
                .detailFields(ConsoleColumn.of("Title", "title"), ConsoleColumn.of("Kind", "kind"),
                        ConsoleColumn.of("Pinned", "pinned"), ConsoleColumn.of("Copies", "copies"),
                        ConsoleColumn.of("Tags", "tags"), ConsoleColumn.of("Contact", "contact"),
                        ConsoleColumn.of("Summary", "summary"), ConsoleColumn.of("Active", "active"),
                        ConsoleColumn.of("Key", "key_set"))
                .emptyText("No desk items yet. Create the first one.")
                .pageSize(3)
                .list(this::list)
                .detail(this::find)
                .create(Json.resource(ProbeDesk.class, "schemas/desk-create.json"), this::create)
                .createdMessage("The item was created.")
                .edit(Json.resource(ProbeDesk.class, "schemas/desk-edit.json"), this::update)
                .savedMessage("The item was saved.")
                .actions(
                        RowAction.builder("rotate-key", "Rotate key")
                                .confirm("The item's current key stops working at once.")
                                .handler(this::rotateKey),
                        RowAction.builder("deactivate", "Deactivate")
                                .confirm("The item stops being offered. This cannot be undone.")
                                .dangerous()
                                .doneMessage("The item was deactivated.")
                                .when(row -> row.path("active").asBoolean())
                                .handler(this::deactivate),
                        RowAction.builder("pin", "Pin").doneMessage("The item was pinned.")
                                .when(row -> !row.path("pinned").asBoolean())
                                .handler(this::pin),
                        RowAction.builder("check", "Check").handler(this::check),
                        RowAction.builder("delete", "Delete").confirm("The item and its notes are deleted.")
                                .dangerous().minRole(ConsoleRole.OWNER).handler(this::delete))
                .build());
        r.consoleSection(ConsoleSection.builder("notes", "Notes")
                .childOf("desk")
                .itemName("note")
                .minRole(ConsoleRole.MEMBER)
                .changeRole(ConsoleRole.MEMBER)
                .columns(ConsoleColumn.of("Note", "body"), ConsoleColumn.of("Written", "created_at"))
                .emptyText("No notes on this item yet.")
                .list(this::listNotes)
                .create(Json.resource(ProbeDesk.class, "schemas/desk-note.json"), this::createNote)
                .build());
        r.route(RouteSpec.get("/api/probe/approve").publicRoute().raw(this::approvePage));
        r.route(RouteSpec.post("/api/probe/approve").publicRoute().raw(this::approvePost));
    }

    // ---- section callbacks

    private static final String COLUMNS = """
            id, title, kind, pinned, copies, tags, contact, summary, active, key_hash IS NOT NULL AS key_set, created_at
            """;

    private RowPage list(SectionContext ctx) {
        var h = ctx.tx().handle();
        long total = h.createQuery("SELECT count(*) FROM probe.desk_items WHERE workspace_id = :ws")
                .bind("ws", ctx.workspaceId()).mapTo(Long.class).one();
        List<ObjectNode> rows = h.createQuery("SELECT " + COLUMNS + """
                         FROM probe.desk_items WHERE workspace_id = :ws ORDER BY pinned DESC, created_at, id
                         LIMIT :limit OFFSET :offset
                        """)
                .bind("ws", ctx.workspaceId()).bind("limit", ctx.page().limit()).bind("offset", ctx.page().offset())
                .map((rs, c) -> row(rs)).list();
        return new RowPage(rows, total);
    }

    private static ObjectNode row(java.sql.ResultSet rs) throws java.sql.SQLException {
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
        row.put("contact", rs.getString("contact"));
        row.put("summary", rs.getString("summary"));
        row.put("active", rs.getBoolean("active"));
        row.put("key_set", rs.getBoolean("key_set"));
        return row;
    }

    private static Optional<UUID> uuid(String id) {
        try {
            return Optional.of(UUID.fromString(id));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private Optional<ObjectNode> find(SectionContext ctx, String id) {
        if (id.equals("archived")) {
            // How the tests see a callback's own refusal on a page.
            throw new ApiProblem(410, "archived", "Archived", "This item was archived and can no longer be shown.");
        }
        if (id.equals("broken")) {
            // How the tests see a callback that fails: the console's error page, a 500.
            throw new IllegalStateException("the probe's desk failed as asked");
        }
        return uuid(id).flatMap(uuid -> ctx.tx().handle()
                .createQuery("SELECT " + COLUMNS + " FROM probe.desk_items WHERE workspace_id = :ws AND id = :id")
                .bind("ws", ctx.workspaceId()).bind("id", uuid).map((rs, c) -> row(rs)).findOne());
    }

    private boolean titleTaken(SectionContext ctx, String title, UUID except) {
        return ctx.tx().handle().createQuery("""
                        SELECT EXISTS (SELECT 1 FROM probe.desk_items WHERE workspace_id = :ws AND lower(title) = lower(:t)
                                          AND id IS DISTINCT FROM CAST(:except AS uuid))
                        """)
                .bind("ws", ctx.workspaceId()).bind("t", title).bind("except", except).mapTo(Boolean.class).one();
    }

    private static String[] tags(JsonNode values) {
        List<String> tags = new ArrayList<>();
        values.path("tags").forEach(t -> tags.add(t.asText()));
        return tags.toArray(String[]::new);
    }

    private ActionResult create(SectionContext ctx, ObjectNode values) {
        String title = values.get("title").asText();
        if (titleTaken(ctx, title, null)) {
            throw ApiProblem.invalidField("/title", "unique", "An item with this title exists already.");
        }
        UUID id = ctx.tx().handle().createQuery("""
                        INSERT INTO probe.desk_items (workspace_id, title, kind, pinned, copies, tags, contact, summary)
                        VALUES (:ws, :title, :kind, :pinned, :copies, :tags, :contact, :summary) RETURNING id
                        """)
                .bind("ws", ctx.workspaceId()).bind("title", title).bind("kind", values.get("kind").asText())
                .bind("pinned", values.path("pinned").asBoolean(false))
                .bind("copies", values.has("copies") ? values.get("copies").asInt() : null)
                .bind("tags", tags(values)).bind("contact", values.path("contact").textValue())
                .bind("summary", values.path("summary").textValue())
                .mapTo(UUID.class).one();
        return ActionResult.showRow(id.toString());
    }

    private ActionResult update(SectionContext ctx, String id, ObjectNode values) {
        UUID uuid = uuid(id).orElseThrow(() -> ApiProblem.notFound("Item"));
        if (titleTaken(ctx, values.get("title").asText(), uuid)) {
            throw ApiProblem.invalidField("/title", "unique", "An item with this title exists already.");
        }
        ctx.tx().handle().createUpdate("""
                        UPDATE probe.desk_items SET title = :title, pinned = :pinned, copies = :copies, tags = :tags
                         WHERE workspace_id = :ws AND id = :id
                        """)
                .bind("ws", ctx.workspaceId()).bind("id", uuid).bind("title", values.get("title").asText())
                .bind("pinned", values.path("pinned").asBoolean(false))
                .bind("copies", values.has("copies") ? values.get("copies").asInt() : null)
                .bind("tags", tags(values)).execute();
        return ActionResult.done();
    }

    private ActionResult rotateKey(SectionContext ctx, String id) throws Exception {
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        String key = "desk_" + HexFormat.of().formatHex(random);
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes()));
        ctx.tx().handle().createUpdate("UPDATE probe.desk_items SET key_hash = :h WHERE workspace_id = :ws AND id = :id")
                .bind("h", hash).bind("ws", ctx.workspaceId()).bind("id", UUID.fromString(id)).execute();
        return ActionResult.secret(id, "Item key", key, "Send it as X-Desk-Key. The previous key no longer works.");
    }

    private ActionResult deactivate(SectionContext ctx, String id) {
        ctx.tx().handle().createUpdate("UPDATE probe.desk_items SET active = false WHERE workspace_id = :ws AND id = :id")
                .bind("ws", ctx.workspaceId()).bind("id", UUID.fromString(id)).execute();
        return ActionResult.done();
    }

    /** A notice of its own when the item has copies; a problem otherwise. */
    private ActionResult check(SectionContext ctx, String id) {
        var row = find(ctx, id).orElseThrow();
        if (!row.has("copies")) {
            throw ApiProblem.conflict("not_checkable", "This item cannot be checked right now.");
        }
        return ActionResult.notice("Checked: " + row.get("copies").asInt() + " copies present.");
    }

    private ActionResult pin(SectionContext ctx, String id) {
        ctx.tx().handle().createUpdate("UPDATE probe.desk_items SET pinned = true WHERE workspace_id = :ws AND id = :id")
                .bind("ws", ctx.workspaceId()).bind("id", UUID.fromString(id)).execute();
        return ActionResult.done();
    }

    private ActionResult delete(SectionContext ctx, String id) {
        ctx.tx().handle().createUpdate("DELETE FROM probe.desk_items WHERE workspace_id = :ws AND id = :id")
                .bind("ws", ctx.workspaceId()).bind("id", UUID.fromString(id)).execute();
        return ActionResult.removed();
    }

    private RowPage listNotes(SectionContext ctx) {
        UUID item = UUID.fromString(ctx.parentId().orElseThrow());
        var h = ctx.tx().handle();
        long total = h.createQuery("SELECT count(*) FROM probe.desk_notes WHERE workspace_id = :ws AND item_id = :item")
                .bind("ws", ctx.workspaceId()).bind("item", item).mapTo(Long.class).one();
        List<ObjectNode> rows = h.createQuery("""
                        SELECT id, body, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI "UTC"') AS at
                          FROM probe.desk_notes WHERE workspace_id = :ws AND item_id = :item
                         ORDER BY created_at, id LIMIT :limit OFFSET :offset
                        """)
                .bind("ws", ctx.workspaceId()).bind("item", item)
                .bind("limit", ctx.page().limit()).bind("offset", ctx.page().offset())
                .map((rs, c) -> {
                    ObjectNode row = Json.object();
                    row.put("id", rs.getString("id"));
                    row.put("body", rs.getString("body"));
                    row.put("created_at", rs.getString("at"));
                    return row;
                }).list();
        return new RowPage(rows, total);
    }

    private ActionResult createNote(SectionContext ctx, ObjectNode values) {
        ctx.tx().handle().createUpdate("""
                        INSERT INTO probe.desk_notes (workspace_id, item_id, body) VALUES (:ws, :item, :body)
                        """)
                .bind("ws", ctx.workspaceId()).bind("item", UUID.fromString(ctx.parentId().orElseThrow()))
                .bind("body", values.get("body").asText()).execute();
        return ActionResult.removed();
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
