package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.core.plugins.PluginRegistry.RegisteredRoute;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The pipeline's contract, checked for every route every loaded plugin registers, from the route's own declaration:
 * a route registered tomorrow is covered the day it is registered. It lives in the MCP plugin's
 * tests because that is the one module whose test class path holds every first-party plugin.
 *
 * <p>Per route: no key is 401 with a code and {@code WWW-Authenticate}; a key without the route's scope is 403
 * {@code missing_scope} and changes nothing in the database; an unknown body field is 422 naming it; a body over
 * the limit is 413; a connection over its rate limit is 429 with {@code Retry-After}; a malformed path id is never a
 * 5xx nor a success; an id of another workspace, in a path, a body or MCP tool arguments, is answered exactly like
 * a missing one.
 */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"}, config = {"lnp.http.max_body_bytes=4096",
        "lnp.webhooks.allowed_networks=127.0.0.0/8"})
class RouteContractTest {

    private static final String UNKNOWN_FIELD = "zz_not_a_field";

    @TestFactory
    Stream<DynamicNode> everyRegisteredRouteKeepsThePipelineContract(TestPlatform platform) {
        List<RegisteredRoute> routes = platform.platform().registry().routes();
        assertTrue(routes.size() > 40, "the registry lists the routes of every plugin: " + routes.size());
        UUID ws = platform.createWorkspace("contract");
        String full = platform.fullAccessKey(ws);
        String contactsOnly = platform.key(ws, "contacts.read");
        String projectsOnly = platform.key(ws, "projects.read");
        // Holding any tool's scope implies mcp.use (docs/mcp.md): the MCP routes are refused to a key whose scopes
        // belong to no tool.
        String noToolScope = platform.key(ws, "webhooks.read");
        System.out.printf("route contract: %d routes of %d plugins%n", routes.size(),
                routes.stream().map(RegisteredRoute::pluginId).distinct().count());
        return routes.stream().map(route -> {
            RouteSpec spec = route.spec();
            List<DynamicTest> rules = new ArrayList<>();
            if (!spec.isPublic()) {
                rules.add(DynamicTest.dynamicTest("no key: 401 with a challenge", () -> noKey(platform, spec)));
                String other = switch (spec.scope()) {
                    case "contacts.read" -> projectsOnly;
                    case "mcp.use" -> noToolScope;
                    default -> contactsOnly;
                };
                rules.add(DynamicTest.dynamicTest("a key without " + spec.scope() + ": 403, nothing changed",
                        () -> missingScope(platform, spec, other)));
                rules.add(DynamicTest.dynamicTest("over the rate limit: 429 with Retry-After",
                        () -> rateLimited(platform, spec, ws)));
            }
            if (spec.bodySchema() != null && !spec.isPublic()) {
                rules.add(DynamicTest.dynamicTest("an unknown field: 422 naming it", () -> unknownField(platform,
                        spec, full)));
            }
            if ((spec.bodySchema() != null || spec.isRaw()) && !spec.isPublic()) {
                rules.add(DynamicTest.dynamicTest("a body over the limit: 413", () -> tooLarge(platform, spec, full)));
            }
            if (spec.path().contains("{") && !spec.isPublic() && (spec.method() == dev.lnp.api.http.HttpMethod.GET
                    || spec.method() == dev.lnp.api.http.HttpMethod.DELETE)) {
                rules.add(DynamicTest.dynamicTest("a malformed id: 400 naming the parameter",
                        () -> malformedId(platform, spec, full)));
            }
            return DynamicContainer.dynamicContainer(route.pluginId() + ": " + spec.method() + " " + spec.path(),
                    rules);
        });
    }

    private static String path(RouteSpec spec, String id) {
        return spec.path().replaceAll("\\{[^}]+}", id);
    }

    private static TestResponse send(TestPlatform platform, RouteSpec spec, String path, String key, String body) {
        Map<String, String> headers = surface(platform, spec) == Surface.MCP
                ? Map.of("Accept", "application/json", "MCP-Protocol-Version", McpFixtures.LATEST) : Map.of();
        boolean hasBody = spec.method() != dev.lnp.api.http.HttpMethod.GET
                && spec.method() != dev.lnp.api.http.HttpMethod.DELETE;
        return platform.send(spec.method().name(), path, key, hasBody ? body : null, headers);
    }

    /** The surface the route was registered on: the registry keeps it, not the route's declaration. */
    private static Surface surface(TestPlatform platform, RouteSpec spec) {
        return platform.platform().registry().routes().stream().filter(r -> r.spec() == spec)
                .map(RegisteredRoute::surface).findFirst().orElseThrow();
    }

    private static void noKey(TestPlatform platform, RouteSpec spec) {
        TestResponse response = send(platform, spec, path(spec, UUID.randomUUID().toString()), null, "{}");
        assertEquals(401, response.status(), response.toString());
        assertTrue(response.header("WWW-Authenticate").orElse("").startsWith("Bearer"), response.toString());
        assertTrue(!response.json().path("code").asText().isEmpty(), response.body());
    }

    private static void missingScope(TestPlatform platform, RouteSpec spec, String key) {
        String before = fingerprint(platform);
        TestResponse response = send(platform, spec, path(spec, UUID.randomUUID().toString()), key,
                "{\"name\":\"x\"}");
        assertEquals(403, response.status(), response.toString());
        assertEquals("missing_scope", response.json().path("code").asText(), response.body());
        assertEquals(before, fingerprint(platform), "the database is unchanged after a 403");
    }

    private static void rateLimited(TestPlatform platform, RouteSpec spec, UUID ws) {
        String key = platform.fullAccessKey(ws);
        UUID connection = McpFixtures.connectionOf(platform, key);
        platform.jdbi().useHandle(h -> h.createUpdate("UPDATE lnp_core.connections SET rest_per_minute = 1, "
                + "mcp_per_minute = 1 WHERE id = :id").bind("id", connection).execute());
        // The limit cannot be 0 (the schema refuses it): the first request takes the one unit, the second is over.
        // Windows are fixed minutes, so when the two straddle a minute's end the second opens a new window: a third
        // request, within the same second, is then over (three requests cannot straddle two minute ends).
        send(platform, spec, path(spec, UUID.randomUUID().toString()), key, "{}");
        TestResponse response = send(platform, spec, path(spec, UUID.randomUUID().toString()), key, "{}");
        if (response.status() != 429) {
            response = send(platform, spec, path(spec, UUID.randomUUID().toString()), key, "{}");
        }
        assertEquals(429, response.status(), response.toString());
        assertTrue(response.header("Retry-After").isPresent(), response.toString());
    }

    private static void unknownField(TestPlatform platform, RouteSpec spec, String key) {
        TestResponse response = send(platform, spec, path(spec, UUID.randomUUID().toString()), key,
                "{\"" + UNKNOWN_FIELD + "\": 1}");
        assertEquals(422, response.status(), response.toString());
        boolean named = false;
        for (JsonNode error : response.json().path("errors")) {
            named |= error.path("pointer").asText().equals("/" + UNKNOWN_FIELD)
                    && error.path("rule").asText().equals("unknown");
        }
        assertTrue(named, "the unknown field is named: " + response.body());
    }

    private static void tooLarge(TestPlatform platform, RouteSpec spec, String key) {
        TestResponse response = send(platform, spec, path(spec, UUID.randomUUID().toString()), key,
                "{\"name\":\"" + "x".repeat(5000) + "\"}");
        assertEquals(413, response.status(), response.toString());
    }

    /** A malformed path id is the client's mistake, answered 400 by the kernel before any handler runs. */
    private static void malformedId(TestPlatform platform, RouteSpec spec, String key) {
        TestResponse response = send(platform, spec, path(spec, "not-a-uuid"), key, "{}");
        assertEquals(400, response.status(), response.toString());
        assertEquals("invalid_path_parameter", response.json().path("code").asText(), response.body());
    }

    /** Every row of every plugin table and of the core's outbox and subscriptions, hashed. */
    private static String fingerprint(TestPlatform platform) {
        return platform.jdbi().withHandle(h -> {
            List<String> tables = h.createQuery("""
                    SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) FROM information_schema.tables
                     WHERE table_type = 'BASE TABLE' AND (table_schema NOT IN ('pg_catalog', 'information_schema',
                           'lnp_core') OR table_name IN ('outbox', 'webhook_subscriptions'))
                       AND table_name NOT LIKE 'flyway%'
                     ORDER BY 1""").mapTo(String.class).list();
            StringBuilder all = new StringBuilder();
            for (String table : tables) {
                all.append(table).append('=').append(h.createQuery("SELECT coalesce(md5(string_agg(t::text, ',' "
                        + "ORDER BY t::text)), '') FROM " + table + " t").mapTo(String.class).one()).append(';');
            }
            return all.toString();
        });
    }

    // ---- cross-workspace ids ----

    /** A loopback receiver, so that subscriptions can be made (a host that does not resolve is refused). */
    private static final dev.lnp.testkit.WebhookReceiver RECEIVER = new dev.lnp.testkit.WebhookReceiver();

    @org.junit.jupiter.api.AfterAll
    static void closeReceiver() {
        RECEIVER.close();
    }

    /**
     * An id of another workspace is answered exactly like an id that exists nowhere: in a path, inside a body and
     * inside MCP tool arguments. Every path-id route the registry lists must be mapped to an entity kind below, so
     * a new {@code /{id}} route fails here until it is covered. Each request template is first sent with an id of
     * the caller's own workspace (except deletes) so a template the route refuses for another reason cannot make
     * the comparison pass vacuously; at the end the other workspace's rows are read back unchanged.
     */
    @TestFactory
    Stream<DynamicNode> anIdOfAnotherWorkspaceIsAnsweredLikeAMissingOne(TestPlatform platform) {
        Entities mine = Entities.create(platform, platform.createWorkspace("cross-mine"));
        Entities theirs = Entities.create(platform, platform.createWorkspace("cross-theirs"));
        Map<String, String> before = theirs.snapshot(platform);
        List<DynamicNode> checks = new ArrayList<>();
        List<DynamicTest> paths = new ArrayList<>();
        List<DynamicTest> deletes = new ArrayList<>();
        for (RegisteredRoute route : platform.platform().registry().routes()) {
            RouteSpec spec = route.spec();
            if (spec.isPublic() || !spec.path().contains("{")) {
                continue;
            }
            String kind = pathEntity(spec.path());
            String body = pathRouteBody(spec);
            String name = spec.method() + " " + spec.path();
            // Closing a cycle changes it for good (a second close is 409): like a delete, it is not first sent with
            // the caller's own id.
            boolean once = spec.method() == dev.lnp.api.http.HttpMethod.DELETE || spec.path().endsWith("/close");
            (once ? deletes : paths).add(DynamicTest.dynamicTest(name,
                    () -> {
                        assertTrue(kind != null, "no entity kind known for the path id of " + name
                                + ": map it in RouteContractTest.pathEntity");
                        // A second id (a delivery of the subscription) is one that exists nowhere, so the own-id
                        // request of those routes is a 404 too: only the first id is compared there.
                        String second = UUID.randomUUID().toString();
                        boolean nested = spec.path().indexOf('{') != spec.path().lastIndexOf('{');
                        compare(platform, mine, spec.method().name(),
                                id -> path(spec, id).replace("/deliveries/" + id, "/deliveries/" + second), id -> body,
                                mine.id(kind), theirs.id(kind),
                                !once && !nested);
                    }));
        }
        checks.add(DynamicContainer.dynamicContainer("ids in paths", paths));
        checks.add(DynamicContainer.dynamicContainer("ids in bodies", bodyCases(platform, mine, theirs)));
        checks.add(DynamicContainer.dynamicContainer("ids in MCP tool arguments", toolCases(platform, mine, theirs)));
        checks.add(DynamicContainer.dynamicContainer("deletes by path id", deletes));
        checks.add(DynamicTest.dynamicTest("the other workspace's rows are unchanged",
                () -> assertEquals(before, theirs.snapshot(platform))));
        return checks.stream();
    }

    private static String pathEntity(String path) {
        if (path.startsWith("/api/v1/crm/deals/")) {
            return "deal";
        } else if (path.startsWith("/api/v1/crm/companies/")) {
            return "company";
        } else if (path.startsWith("/api/v1/crm/contacts/")) {
            return "contact";
        } else if (path.startsWith("/api/v1/issues/")) {
            return "task";
        } else if (path.startsWith("/api/v1/projects/")) {
            return "project";
        } else if (path.startsWith("/api/v1/webhooks/subscriptions/")) {
            return "subscription";
        } else if (path.startsWith("/api/v1/users/") || path.startsWith("/api/v1/planning/capacities/")) {
            return "user";
        } else if (path.startsWith("/api/v1/cycles/")) {
            return "cycle";
        } else if (path.startsWith("/api/v1/planning/allocations/")) {
            return "allocation";
        }
        return null;
    }

    private static final String CYCLE = "\"name\":\"c\",\"start_date\":\"2026-01-05\",\"end_date\":\"2026-01-09\"";
    /** Cycles of one project may not overlap: the route and the tool each create theirs in a week of its own. */
    private static final String ROUTE_CYCLE = "\"name\":\"c\",\"start_date\":\"2026-02-02\",\"end_date\":\"2026-02-06\"";
    private static final String TOOL_CYCLE = "\"name\":\"c\",\"start_date\":\"2026-03-02\",\"end_date\":\"2026-03-06\"";

    private static String pathRouteBody(RouteSpec spec) {
        if (spec.method() == dev.lnp.api.http.HttpMethod.GET || spec.method() == dev.lnp.api.http.HttpMethod.DELETE) {
            return null;
        } else if (spec.path().endsWith("/comments")) {
            return "{\"body\":\"hello\"}";
        } else if (spec.path().endsWith("/cycles")) {
            return "{" + ROUTE_CYCLE + "}";
        } else if (spec.path().endsWith("/close")) {
            return "{\"target_cycle_id\":null}";
        } else if (spec.path().startsWith("/api/v1/cycles/")) {
            return "{\"name\":\"renamed\"}";
        } else if (spec.path().startsWith("/api/v1/planning/allocations/")) {
            return "{\"note\":\"renamed\"}";
        } else if (spec.path().startsWith("/api/v1/planning/capacities/")) {
            return "{\"weekly_hours\":30}";
        } else if (spec.path().startsWith("/api/v1/projects/") || spec.path().startsWith("/api/v1/crm/companies/")) {
            return "{\"name\":\"renamed\"}";
        } else if (spec.path().startsWith("/api/v1/webhooks/")) {
            return spec.method() == dev.lnp.api.http.HttpMethod.PATCH ? "{\"description\":\"renamed\"}"
                    : spec.path().endsWith("/recover") ? "{\"since\":\"2026-01-01T00:00:00Z\"}" : "{}";
        }
        return "{\"title\":\"renamed\"}";
    }

    private static List<DynamicTest> bodyCases(TestPlatform platform, Entities mine, Entities theirs) {
        String allocation = "{\"user_id\":\"" + UUID.randomUUID() + "\",\"start_date\":\"2026-01-05\","
                + "\"end_date\":\"2026-01-09\",\"hours_per_day\":4,";
        String task = "{\"kind\":\"task\",\"title\":\"t\",";
        String own = mine.id("project");
        List<Object[]> cases = List.of(
                new Object[] {"deal contact_id", "POST", "/api/v1/crm/deals", "{\"title\":\"d\",\"contact_id\":\"%s\"}",
                        "contact"},
                new Object[] {"deal PATCH contact_id", "PATCH", "/api/v1/crm/deals/" + mine.id("deal"),
                        "{\"contact_id\":\"%s\"}", "contact"},
                new Object[] {"deal company_id", "POST", "/api/v1/crm/deals", "{\"title\":\"d\",\"company_id\":\"%s\"}",
                        "company"},
                new Object[] {"deal PATCH company_id", "PATCH", "/api/v1/crm/deals/" + mine.id("deal"),
                        "{\"company_id\":\"%s\"}", "company"},
                new Object[] {"contact company_id", "POST", "/api/v1/crm/contacts",
                        "{\"email\":\"someone-%s@example.com\",\"company_id\":\"%<s\"}", "company"},
                new Object[] {"deal list filter company_id", "GET", "/api/v1/crm/deals?company_id=%s", null, "company"},
                new Object[] {"issue project_id", "POST", "/api/v1/issues", task + "\"project_id\":\"%s\"}",
                        "project"},
                new Object[] {"issue cycle_id", "POST", "/api/v1/issues", task + "\"project_id\":\"" + own
                        + "\",\"cycle_id\":\"%s\"}", "cycle"},
                new Object[] {"issue parent_id", "POST", "/api/v1/issues", task + "\"project_id\":\"" + own
                        + "\",\"parent_id\":\"%s\"}", "task"},
                new Object[] {"issue PATCH cycle_id", "PATCH", "/api/v1/issues/" + mine.id("task"),
                        "{\"cycle_id\":\"%s\"}", "cycle"},
                new Object[] {"issue PATCH parent_id", "PATCH", "/api/v1/issues/" + mine.id("task"),
                        "{\"parent_id\":\"%s\"}", "task2"},
                new Object[] {"bulk-update issueIds", "POST", "/api/v1/issues/bulk-update",
                        "{\"issueIds\":[\"%s\"],\"patch\":{\"priority\":\"high\"}}", "task"},
                new Object[] {"bulk-update add_labels", "POST", "/api/v1/issues/bulk-update",
                        "{\"issueIds\":[\"" + mine.id("task") + "\"],\"patch\":{\"add_labels\":[\"%s\"]}}", "label"},
                new Object[] {"bulk-update remove_labels", "POST", "/api/v1/issues/bulk-update",
                        "{\"issueIds\":[\"" + mine.id("task") + "\"],\"patch\":{\"remove_labels\":[\"%s\"]}}",
                        "label"},
                new Object[] {"bulk-update cycle_id", "POST", "/api/v1/issues/bulk-update",
                        "{\"issueIds\":[\"" + mine.id("task") + "\"],\"patch\":{\"cycle_id\":\"%s\"}}", "cycle"},
                new Object[] {"allocation project_id", "POST", "/api/v1/planning/allocations",
                        allocation + "\"project_id\":\"%s\"}", "project"},
                new Object[] {"allocation issue_id", "POST", "/api/v1/planning/allocations",
                        allocation + "\"issue_id\":\"%s\"}", "task"},
                new Object[] {"list filter project_id", "GET", "/api/v1/issues?project_id=%s", null, "project"},
                new Object[] {"list filter cycle_id", "GET", "/api/v1/issues?cycle_id=%s", null, "cycle"},
                new Object[] {"list filter label", "GET", "/api/v1/issues?label=%s", null, "label"},
                new Object[] {"list filter parent_id", "GET", "/api/v1/issues?parent_id=%s", null, "task"},
                new Object[] {"allocation PATCH project_id", "PATCH", "/api/v1/planning/allocations/"
                        + mine.id("allocation"), "{\"project_id\":\"%s\"}", "project"},
                new Object[] {"allocation PATCH issue_id", "PATCH", "/api/v1/planning/allocations/"
                        + mine.id("allocation"), "{\"issue_id\":\"%s\"}", "task"},
                new Object[] {"allocation list project_id", "GET", "/api/v1/planning/allocations?project_id=%s",
                        null, "project"});
        List<DynamicTest> tests = new ArrayList<>(cases.stream().map(c -> DynamicTest.dynamicTest((String) c[0],
                () -> compare(platform, mine, (String) c[1], id -> ((String) c[2]).formatted(id), id -> c[3] == null
                        ? null : ((String) c[3]).formatted(id), mine.id((String) c[4]), theirs.id((String) c[4]),
                        true))).toList());
        // Refused before anything changes, so the cycle stays open for the other checks; not sent with an own id.
        tests.add(DynamicTest.dynamicTest("cycle close target_cycle_id", () -> compare(platform, mine, "POST",
                id -> "/api/v1/cycles/" + mine.id("cycle") + "/close", id -> "{\"target_cycle_id\":\"" + id + "\"}",
                mine.id("cycle"), theirs.id("cycle"), false)));
        return tests;
    }

    private static List<DynamicTest> toolCases(TestPlatform platform, Entities mine, Entities theirs) {
        String task = "\"kind\":\"task\",\"title\":\"t\"";
        List<String[]> cases = List.of(
                new String[] {"crm_get_deal", "{\"id\":\"%s\"}", "deal"},
                new String[] {"crm_update_deal", "{\"id\":\"%s\",\"title\":\"x\"}", "deal"},
                new String[] {"crm_create_deal", "{\"title\":\"x\",\"contact_id\":\"%s\"}", "contact"},
                new String[] {"crm_update_contact", "{\"id\":\"%s\",\"first_name\":\"x\"}", "contact"},
                new String[] {"crm_get_contact", "{\"id\":\"%s\"}", "contact"},
                new String[] {"crm_update_contact", "{\"id\":\"" + mine.id("contact") + "\",\"company_id\":\"%s\"}",
                        "company"},
                new String[] {"crm_create_deal", "{\"title\":\"x\",\"company_id\":\"%s\"}", "company"},
                new String[] {"crm_get_company", "{\"id\":\"%s\"}", "company"},
                new String[] {"crm_update_company", "{\"id\":\"%s\",\"name\":\"x\"}", "company"},
                new String[] {"issues_get", "{\"id\":\"%s\"}", "task"},
                new String[] {"issues_update", "{\"id\":\"%s\",\"title\":\"x\"}", "task"},
                new String[] {"issues_comment", "{\"issue_id\":\"%s\",\"body\":\"x\"}", "task"},
                new String[] {"issues_comment", "{\"id\":\"%s\",\"body\":\"x\"}", "task"},
                new String[] {"issues_create", "{" + task + ",\"project_id\":\"%s\"}", "project"},
                new String[] {"issues_create", "{" + task + ",\"project_id\":\"" + mine.id("project")
                        + "\",\"cycle_id\":\"%s\"}", "cycle"},
                new String[] {"issues_bulk_update", "{\"issueIds\":[\"%s\"],\"patch\":{\"priority\":\"low\"}}",
                        "task"},
                new String[] {"issues_bulk_update", "{\"issueIds\":[\"" + mine.id("task")
                        + "\"],\"patch\":{\"add_labels\":[\"%s\"]}}", "label"},
                new String[] {"projects_get", "{\"id\":\"%s\"}", "project"},
                new String[] {"projects_update", "{\"id\":\"%s\",\"name\":\"x\"}", "project"},
                new String[] {"projects_cycle_create", "{\"id\":\"%s\"," + TOOL_CYCLE + "}", "project"},
                new String[] {"planning_allocation_create", "{\"user_id\":\"" + UUID.randomUUID()
                        + "\",\"start_date\":\"2026-01-05\",\"end_date\":\"2026-01-09\",\"hours_per_day\":4,"
                        + "\"project_id\":\"%s\"}", "project"},
                new String[] {"projects_cycle_get", "{\"id\":\"%s\"}", "cycle"},
                new String[] {"projects_cycle_update", "{\"id\":\"%s\",\"name\":\"x\"}", "cycle"},
                new String[] {"planning_allocation_get", "{\"id\":\"%s\"}", "allocation"},
                new String[] {"planning_allocation_update", "{\"id\":\"%s\",\"note\":\"x\"}", "allocation"},
                new String[] {"planning_allocation_update", "{\"id\":\"" + mine.id("allocation")
                        + "\",\"project_id\":\"%s\"}", "project"});
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] c : cases) {
            tests.add(DynamicTest.dynamicTest(c[0] + " " + c[2], () -> compare(platform, mine, "POST",
                    id -> "/api/mcp/tools/call", id -> "{\"name\":\"" + c[0] + "\",\"arguments\":"
                            + c[1].formatted(id) + "}", mine.id(c[2]), theirs.id(c[2]), true)));
        }
        for (String[] c : List.of(new String[] {"crm_delete_deal", "deal"}, new String[] {"crm_delete_contact",
                "contact"}, new String[] {"issues_delete_task", "task"}, new String[] {"projects_delete",
                "project"}, new String[] {"planning_allocation_delete", "allocation"}, new String[] {
                "projects_cycle_close", "cycle"})) {
            tests.add(DynamicTest.dynamicTest(c[0], () -> compare(platform, mine, "POST",
                    id -> "/api/mcp/tools/call", id -> "{\"name\":\"" + c[0] + "\",\"arguments\":{\"id\":\"" + id
                            + "\"}}", mine.id(c[1]), theirs.id(c[1]), false)));
        }
        return tests;
    }

    /**
     * Sends one request built around an id of the other workspace and the same request around an id that exists
     * nowhere, each with a fresh key of the caller's workspace (so the rate-limit headers count alike), and compares
     * status, headers and body with the request id and Date left out and the id itself replaced by a marker.
     */
    private static void compare(TestPlatform platform, Entities mine, String method,
            java.util.function.Function<String, String> path, java.util.function.Function<String, String> body,
            String ownId, String theirId, boolean checkOwn) {
        if (checkOwn) {
            TestResponse own = sendAs(platform, mine, method, path.apply(ownId), body.apply(ownId));
            assertTrue(own.status() / 100 == 2 && !own.body().contains("\"isError\":true"),
                    "the template is accepted with the caller's own id: " + own);
        }
        String missing = UUID.randomUUID().toString();
        Normalised foreign = Normalised.of(sendAs(platform, mine, method, path.apply(theirId),
                body.apply(theirId)), theirId);
        Normalised absent = Normalised.of(sendAs(platform, mine, method, path.apply(missing), body.apply(missing)),
                missing);
        // A list filtered by another workspace's id is an empty page, like one filtered by a missing id.
        assertTrue(method.equals("GET") && path.apply(theirId).contains("?") || foreign.status() / 100 == 4
                || foreign.body().contains("\"isError\":true"),
                "another workspace's id is refused: " + foreign);
        assertEquals(absent, foreign, "another workspace's id is answered like a missing one");
    }

    private static TestResponse sendAs(TestPlatform platform, Entities mine, String method, String path,
            String body) {
        Map<String, String> headers = path.startsWith("/api/mcp")
                ? Map.of("Accept", "application/json", "MCP-Protocol-Version", McpFixtures.LATEST) : Map.of();
        return platform.send(method, path, platform.fullAccessKey(mine.workspace()), body, headers);
    }

    private record Normalised(int status, Map<String, List<String>> headers, String body) {
        static Normalised of(TestResponse response, String id) {
            Map<String, List<String>> headers = new java.util.TreeMap<>();
            response.headers().map().forEach((name, values) -> {
                if (!name.equalsIgnoreCase("x-request-id") && !name.equalsIgnoreCase("date")) {
                    // The seconds to the window's reset tick with the wall clock, not with the id.
                    headers.put(name.toLowerCase(java.util.Locale.ROOT), values.stream()
                            .map(v -> name.equalsIgnoreCase("ratelimit") ? v.replaceAll(";t=\\d+", "") : v)
                            .toList());
                }
            });
            String body = response.body().replace(id, "<id>");
            String requestId = response.header("X-Request-Id").orElse(null);
            if (requestId != null) {
                body = body.replace(requestId, "<request-id>");
            }
            return new Normalised(response.status(), headers, body);
        }
    }

    /** One row of each kind a route refers to, made through the API in one workspace. */
    private record Entities(UUID workspace, Map<String, String> ids) {
        static Entities create(TestPlatform platform, UUID workspace) {
            String key = platform.fullAccessKey(workspace);
            Map<String, String> ids = new java.util.HashMap<>();
            ids.put("company", created(platform.post("/api/v1/crm/companies", key, "{\"name\":\"company\"}")));
            ids.put("contact", created(platform.post("/api/v1/crm/contacts", key,
                    "{\"email\":\"someone-" + workspace + "@example.com\"}")));
            ids.put("deal", created(platform.post("/api/v1/crm/deals", key, "{\"title\":\"deal\",\"contact_id\":\""
                    + ids.get("contact") + "\"}")));
            ids.put("project", created(platform.post("/api/v1/projects", key, "{\"name\":\"project\"}")));
            ids.put("cycle", created(platform.post("/api/v1/projects/" + ids.get("project") + "/cycles", key,
                    "{" + CYCLE + "}")));
            ids.put("label", created(platform.post("/api/v1/issues/labels", key,
                    "{\"name\":\"label\",\"color\":\"#AA0011\"}")));
            for (String task : List.of("task", "task2")) {
                ids.put(task, created(platform.post("/api/v1/issues", key, "{\"kind\":\"task\",\"title\":\"" + task
                        + "\",\"project_id\":\"" + ids.get("project") + "\",\"cycle_id\":\"" + ids.get("cycle")
                        + "\"}")));
            }
            ids.put("allocation", created(platform.post("/api/v1/planning/allocations", key, "{\"user_id\":\""
                    + UUID.randomUUID() + "\",\"start_date\":\"2026-01-05\",\"end_date\":\"2026-01-09\","
                    + "\"hours_per_day\":4,\"project_id\":\"" + ids.get("project") + "\"}")));
            ids.put("subscription", created(platform.post("/api/v1/webhooks/subscriptions", key,
                    "{\"url\":\"" + RECEIVER.url("/hook") + "\",\"events\":[\"crm.contact.created\"]}")));
            ids.put("user", platform.get("/api/v1/users", key).json().path("data").path(0).path("id").asText());
            platform.post("/api/v1/issues/bulk-update", key, "{\"issueIds\":[\"" + ids.get("task")
                    + "\"],\"patch\":{\"add_labels\":[\"" + ids.get("label") + "\"]}}");
            return new Entities(workspace, ids);
        }

        private static String created(TestResponse response) {
            assertEquals(201, response.status(), response.toString());
            // CRM answers the row itself, the other plugins an envelope.
            JsonNode row = response.json().has("data") ? response.data() : response.json();
            return row.path("id").asText();
        }

        String id(String kind) {
            return java.util.Objects.requireNonNull(ids.get(kind), kind);
        }

        /** Every row made above, read back through the API by the owning workspace. */
        Map<String, String> snapshot(TestPlatform platform) {
            String key = platform.fullAccessKey(workspace);
            Map<String, String> rows = new java.util.TreeMap<>();
            rows.put("contacts", platform.get("/api/v1/crm/contacts", key).body());
            rows.put("deal", platform.get("/api/v1/crm/deals/" + id("deal"), key).body());
            rows.put("companies", platform.get("/api/v1/crm/companies", key).body());
            rows.put("project", platform.get("/api/v1/projects/" + id("project"), key).body());
            rows.put("cycles", platform.get("/api/v1/projects/" + id("project") + "/cycles", key).body());
            rows.put("labels", platform.get("/api/v1/issues/labels", key).body());
            rows.put("issues", platform.get("/api/v1/projects/" + id("project") + "/issues", key).body());
            rows.put("comments", platform.get("/api/v1/issues/" + id("task") + "/comments", key).body());
            rows.put("subscription", platform.get("/api/v1/webhooks/subscriptions/" + id("subscription"), key)
                    .body());
            rows.put("allocations", platform.get("/api/v1/planning/allocations?project_id=" + id("project"), key)
                    .body());
            return rows;
        }
    }
}
