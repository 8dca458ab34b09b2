package dev.lnp.testkit.probe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.PluginContext;
import dev.lnp.api.events.EventType;
import dev.lnp.api.mail.Mailer;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.RouteSpec;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A plugin that uses every pipeline feature, so the core's rules can be tested without a product plugin. */
public final class ProbePlugin implements PlatformPlugin {

    private volatile Mailer mailer;
    private final ProbeDesk desk = new ProbeDesk();

    @Override
    public void start(PluginContext context) {
        mailer = context.service(Mailer.class).orElseThrow();
        desk.start(context.service(dev.lnp.api.internal.people.PeoplePages.class).orElseThrow());
    }

    @Override
    public void register(Registrar r) {
        desk.register(r);
        new ProbePages().register(dev.lnp.api.pages.PageRegistrar.of(r));
        r.scope("probe.read", "Read probe items").scope("probe.write", "Write probe items").migrations("probe")
                .quota("probe_writes", 1_000_000);
        r.route(RouteSpec.get("/api/v1/probe/items").scope("probe.read").paginated()
                .query(QueryParam.oneOf("kind", List.of("a", "b"), "kind filter").asRepeatable(),
                        QueryParam.string("q", "name contains"))
                .handler(this::list));
        r.route(RouteSpec.get("/api/v1/probe/items/{id}").scope("probe.read").handler(this::get));
        r.route(RouteSpec.post("/api/v1/probe/items").scope("probe.write").quota("probe_writes")
                .body(Json.resource(ProbePlugin.class, "schemas/item-create.json")).handler(this::create));
        r.route(RouteSpec.patch("/api/v1/probe/items/{id}").scope("probe.write")
                .body(Json.resource(ProbePlugin.class, "schemas/item-patch.json")).handler(this::patch));
        r.route(RouteSpec.get("/api/v1/probe/unfiltered-count").scope("probe.read").handler(this::unfiltered));
        // A handler that hides its statement's failure (a careless plugin): the answer must not outlive a stale
        // admission (TransactionOpeningTest).
        r.route(RouteSpec.get("/api/v1/probe/careless-count").scope("probe.read").handler(req -> {
            try {
                return unfiltered(req);
            } catch (RuntimeException hidden) {
                return ApiResponse.of(Map.of("count", -1));
            }
        }));
        r.route(RouteSpec.get("/api/v1/probe/whoami").scope("probe.read").handler(req -> {
            var p = req.principal().orElseThrow();
            return ApiResponse.of(Map.of("actor_id", p.actorId(), "identity_id", p.identityId(), "role", p.role(),
                    "scopes", new java.util.TreeSet<>(p.scopes())));
        }));
        // A read that holds its connection for 1.5 s between two statements: a read that sends no statement never
        // reaches the database, outage or not, and one whose statements are all done has nothing left to send
        // (a read sends no commit).
        r.route(RouteSpec.get("/api/v1/probe/slow").scope("probe.read").handler(req -> {
            req.tx().handle().createQuery("SELECT 1").mapTo(Integer.class).one();
            Thread.sleep(1500);
            req.tx().handle().createQuery("SELECT 2").mapTo(Integer.class).one();
            return ApiResponse.of(Map.of("slow", true));
        }));
        // Events for the webhook tests: a burst of `count` events in one transaction, rolled back when `fail`.
        JsonNode eventSchema = Json.parse("{\"type\": \"object\", \"properties\": {\"i\": {\"type\": \"integer\"}}}");
        r.event(new EventType("probe.burst", "A probe event", eventSchema, List.of("burst.legacy")));
        r.event(new EventType("probe.other", "Another probe event", eventSchema, List.of()));
        r.route(RouteSpec.post("/api/v1/probe/events").scope("probe.write")
                .body(Json.resource(ProbePlugin.class, "schemas/events-publish.json")).handler(this::publish));
        // Mail for the mail tests: queued in the request's transaction, rolled back when `fail`.
        r.route(RouteSpec.post("/api/v1/probe/mail").scope("probe.write")
                .body(Json.resource(ProbePlugin.class, "schemas/mail-send.json")).handler(this::mail));
        // A long answer (`rows` strings of 1 KB) that fails while it is being written when `fail_at` is given.
        r.route(RouteSpec.get("/api/v1/probe/long").scope("probe.read")
                .query(QueryParam.number("rows", "how many rows"), QueryParam.number("fail_at", "the failing row"))
                .handler(req -> ApiResponse.of(longRows(Integer.parseInt(req.query("rows").orElse("0")),
                        Integer.parseInt(req.query("fail_at").orElse("-1"))))));
        // Transactions PostgreSQL aborts: a real deadlock of two requests that take two advisory locks in opposite
        // orders (`lock_first`, `lock_then`, meeting at `pair`), or `aborts` runs ended by the given SQLSTATE.
        JsonNode conflictSchema = Json.resource(ProbePlugin.class, "schemas/conflict.json");
        r.route(RouteSpec.post("/api/v1/probe/conflicts").scope("probe.write").body(conflictSchema)
                .handler(req -> ApiResponse.of(conflict(req.body(), req.tx(), req.workspaceId()))));
        r.tool(ToolDescriptor.builder("probe_conflict").title("Meet a conflict")
                .description("The conflicts route as a tool: an item, then the aborts asked for.")
                .scope("probe.write").inputSchema(conflictSchema)
                .outputSchema(Json.parse("{\"type\": \"object\", \"required\": [\"name\", \"runs\"], \"properties\": "
                        + "{\"name\": {\"type\": \"string\"}, \"runs\": {\"type\": \"integer\"}}}"))
                .annotations(ToolAnnotations.create())
                .handler(call -> ToolResult.of(conflict(call.arguments(), call.tx(), call.principal().workspaceId()))));
        // Reads that write (a plugin's mistake): refused while they run as reads, then run again as writes
        // (TransactionOpeningTest). The careless one hides its statement's failure.
        r.route(RouteSpec.get("/api/v1/probe/writing-read").scope("probe.read")
                .query(QueryParam.string("name", "the item's name"))
                .handler(req -> ApiResponse.of(
                        writingRead(req.tx(), req.workspaceId(), req.query("name").orElseThrow(), false))));
        r.route(RouteSpec.get("/api/v1/probe/careless-writing-read").scope("probe.read")
                .query(QueryParam.string("name", "the item's name"))
                .handler(req -> ApiResponse.of(
                        writingRead(req.tx(), req.workspaceId(), req.query("name").orElseThrow(), true))));
        // The same as tools annotated read-only.
        JsonNode named = Json.parse("{\"type\": \"object\", \"required\": [\"name\"], \"properties\": "
                + "{\"name\": {\"type\": \"string\"}}}");
        for (boolean careless : new boolean[] {false, true}) {
            r.tool(ToolDescriptor.builder(careless ? "probe_careless_writing_read" : "probe_writing_read")
                    .title("Read that writes").description("Stores an item although it is annotated read-only.")
                    .scope("probe.read").inputSchema(named).annotations(ToolAnnotations.read())
                    .outputSchema(Json.parse("{\"type\": \"object\", \"required\": [\"name\", \"runs\"], "
                            + "\"properties\": {\"name\": {\"type\": \"string\"}, \"runs\": {\"type\": \"integer\"}, "
                            + "\"hidden\": {\"type\": \"boolean\"}}}"))
                    .handler(call -> ToolResult.of(writingRead(call.tx(), call.principal().workspaceId(),
                            call.arguments().path("name").asText(), careless))));
        }
        r.route(RouteSpec.get("/api/v1/probe/boom").scope("probe.read").handler(req -> {
            throw new IllegalStateException("secret internal detail SELECT * FROM probe.items");
        }));
    }

    /** Serialised by Jackson as an array, row by row: the failure comes after many bytes were written. */
    private static java.util.Iterator<String> longRows(int rows, int failAt) {
        String filler = "x".repeat(1000);
        return new java.util.Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < rows;
            }

            @Override
            public String next() {
                if (next == failAt) {
                    throw new IllegalStateException("row " + failAt + " failed as asked");
                }
                return next++ + filler;
            }
        };
    }

    private ApiResponse list(ApiRequest req) {
        var h = req.tx().handle();
        List<String> kinds = req.queryAll("kind").isEmpty() ? List.of("a", "b") : req.queryAll("kind");
        String q = req.query("q").orElse("");
        long total = h.createQuery("""
                        SELECT count(*) FROM probe.items
                         WHERE workspace_id = :ws AND kind = ANY(:kinds) AND name LIKE '%' || :q || '%'
                        """)
                .bind("ws", req.workspaceId()).bind("kinds", kinds.toArray(String[]::new)).bind("q", q)
                .mapTo(Long.class).one();
        var items = h.createQuery("""
                        SELECT id, name, kind FROM probe.items
                         WHERE workspace_id = :ws AND kind = ANY(:kinds) AND name LIKE '%' || :q || '%'
                         ORDER BY created_at, id LIMIT :limit OFFSET :offset
                        """)
                .bind("ws", req.workspaceId()).bind("kinds", kinds.toArray(String[]::new)).bind("q", q)
                .bind("limit", req.pageRequest().limit()).bind("offset", req.pageRequest().offset())
                .mapToMap().list();
        return ApiResponse.page(items, Page.of(req.pageRequest(), total));
    }

    private ApiResponse get(ApiRequest req) {
        return ApiResponse.of(req.tx().handle()
                .createQuery("SELECT id, name, kind FROM probe.items WHERE workspace_id = :ws AND id = :id")
                .bind("ws", req.workspaceId()).bind("id", req.pathId("id"))
                .mapToMap().findOne().orElseThrow(() -> ApiProblem.notFound("Item")));
    }

    private ApiResponse create(ApiRequest req) {
        var body = req.body();
        UUID id = req.tx().handle().createQuery("""
                        INSERT INTO probe.items (workspace_id, name, kind) VALUES (:ws, :name, :kind) RETURNING id
                        """)
                .bind("ws", req.workspaceId()).bind("name", body.get("name").asText())
                .bind("kind", body.path("kind").asText("a"))
                .mapTo(UUID.class).one();
        return ApiResponse.of(Map.of("id", id, "name", body.get("name").asText()));
    }

    private final Map<String, java.util.concurrent.atomic.AtomicInteger> conflictRuns =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, java.util.concurrent.CountDownLatch> conflictPairs =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** Inserts an item named {@code name}, then meets its conflict; answers how many times the handler ran. */
    private Map<String, Object> conflict(JsonNode body, WorkspaceTx tx, UUID workspaceId)
            throws InterruptedException {
        String name = body.get("name").asText();
        int run = conflictRuns.computeIfAbsent(name, k -> new java.util.concurrent.atomic.AtomicInteger())
                .incrementAndGet();
        var h = tx.handle();
        h.createUpdate("INSERT INTO probe.items (workspace_id, name, kind) VALUES (:ws, :name, 'a')")
                .bind("ws", workspaceId).bind("name", name).execute();
        if (body.has("lock_first")) {
            h.createQuery("SELECT pg_advisory_xact_lock(:k)::text").bind("k", body.get("lock_first").asLong())
                    .mapTo(String.class).one();
            var met = conflictPairs.computeIfAbsent(body.get("pair").asText(),
                    k -> new java.util.concurrent.CountDownLatch(2));
            met.countDown();
            met.await(10, java.util.concurrent.TimeUnit.SECONDS);
            h.createQuery("SELECT pg_advisory_xact_lock(:k)::text").bind("k", body.get("lock_then").asLong())
                    .mapTo(String.class).one();
        }
        if (run <= body.path("aborts").asInt(0)) {
            h.createUpdate("DO $$ BEGIN RAISE EXCEPTION 'aborted as asked' USING ERRCODE = '"
                    + body.path("sqlstate").asText("40P01") + "'; END $$").execute();
        }
        return Map.of("name", name, "runs", run);
    }

    private Map<String, Object> writingRead(WorkspaceTx tx, UUID workspace, String name, boolean careless) {
        int run = conflictRuns.computeIfAbsent(name, k -> new java.util.concurrent.atomic.AtomicInteger())
                .incrementAndGet();
        var insert = tx.handle()
                .createUpdate("INSERT INTO probe.items (workspace_id, name, kind) VALUES (:ws, :name, 'a')")
                .bind("ws", workspace).bind("name", name);
        if (!careless) {
            insert.execute();
        } else {
            try {
                insert.execute();
            } catch (RuntimeException hidden) {
                return Map.of("name", name, "runs", run, "hidden", true);
            }
        }
        return Map.of("name", name, "runs", run);
    }

    private ApiResponse patch(ApiRequest req) {
        int updated = req.tx().handle().createUpdate("""
                        UPDATE probe.items SET name = COALESCE(:name, name), kind = COALESCE(:kind, kind)
                         WHERE workspace_id = :ws AND id = :id
                        """)
                .bind("ws", req.workspaceId()).bind("id", req.pathId("id"))
                .bind("name", req.body().path("name").textValue()).bind("kind", req.body().path("kind").textValue())
                .execute();
        if (updated == 0) {
            throw ApiProblem.notFound("Item");
        }
        return get(req);
    }

    private ApiResponse mail(ApiRequest req) {
        var body = req.body();
        UUID workspace = switch (body.path("workspace").asText("own")) {
            case "none" -> null;
            case "other" -> UUID.randomUUID();
            default -> req.workspaceId();
        };
        UUID id;
        try {
            id = mailer.send(new OutgoingMail(workspace, body.get("to").asText(), body.get("subject").asText(),
                    body.get("text").asText(), body.path("html").textValue(), "probe-mail"));
        } catch (IllegalArgumentException e) {
            throw new ApiProblem(422, "invalid_mail", "Invalid mail", e.getMessage());
        }
        if (body.path("fail").asBoolean(false)) {
            throw new ApiProblem(409, "probe_failed", "Conflict", "Failed after queueing mail, as asked");
        }
        return ApiResponse.of(Map.of("id", id, "local_mailbox", mailer.localMailbox()));
    }

    private ApiResponse publish(ApiRequest req) {
        int count = req.body().get("count").asInt();
        String event = req.body().path("event").asText("probe.burst");
        String pad = "x".repeat(req.body().path("pad").asInt(0));
        for (int i = 0; i < count; i++) {
            req.tx().events().publish(event, pad.isEmpty() ? Map.of("i", i) : Map.of("i", i, "pad", pad));
        }
        if (req.body().path("fail").asBoolean(false)) {
            throw new ApiProblem(409, "probe_failed", "Conflict", "Failed after publishing, as asked");
        }
        return ApiResponse.of(Map.of("published", count));
    }

    /** Deliberately forgets the workspace filter: row-level security must still confine it. */
    private ApiResponse unfiltered(ApiRequest req) {
        return ApiResponse.of(Map.of("count",
                req.tx().handle().createQuery("SELECT count(*) FROM probe.items").mapTo(Long.class).one()));
    }
}
