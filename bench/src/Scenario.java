import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One benchmark scenario, declared in one entry of {@link Bench#scenarios}: what wrk sends (a plain GET of
 * {@code path}, or a Lua script), at how many connections, the pgbench file and variables of its database
 * ceiling (read scenarios), and the target it is judged against.
 *
 * @param probe   for scenarios that need a route another plugin brings (MCP, webhooks): a request sent once
 *                first; a 404 means the route is not in this build and the row reads "n/a"
 * @param runner  "wrk" for load scenarios, "webhook" for {@link WebhookRun}; anything else is a scenario this
 *                harness cannot run yet (n/a)
 */
record Scenario(String name, int connections, String path, String lua, Map<String, String> env, String ceilingSql,
        List<String> ceilingVars, Probe probe, String runner, Target target) {

    /** A request sent once before the run; {@code body} null means GET. */
    record Probe(String method, String path, String body) {
    }

    /** What the row is judged against; {@code kind} is read by {@link Bench#verdict}. */
    record Target(String kind, double value, String text) {
    }

    static Scenario get(String name, int connections, String path) {
        return new Scenario(name, connections, path, "get.lua", Map.of(), null, List.of(), null, "wrk", null);
    }

    static Scenario lua(String name, int connections, String path, String lua) {
        return new Scenario(name, connections, path, lua, Map.of(), null, List.of(), null, "wrk", null);
    }

    /**
     * A page of the workspace application, fetched by a signed-in member at 4 connections (a few people at once);
     * judged by the server's own time (Server-Timing), the figure the browser's developer tools show.
     */
    static Scenario page(String name, String path) {
        return new Scenario(name, 4, path, "page.lua", Map.of(), null, List.of(), null, "wrk", null)
                .target("server-p95", 25, "Server-Timing p95 < 25 ms");
    }

    /** A POST of a fixed JSON body, only run when {@code probe} finds the route. */
    static Scenario postIfRouted(String name, int connections, String path, String body) {
        return new Scenario(name, connections, path, "post_json.lua", Map.of("BENCH_BODY", body), null, List.of(),
                new Probe("POST", path, body), "wrk", null);
    }

    /**
     * Webhook delivery: {@code events} contacts POSTed at {@code connections} workers, delivered to a receiver
     * in the harness ({@link WebhookRun}); only run when the subscriptions route exists.
     */
    static Scenario webhooks(String name, int connections, int events) {
        return new Scenario(name, connections, "/api/v1/webhooks/subscriptions", null,
                Map.of("BENCH_EVENTS", Integer.toString(events)), null, List.of(),
                new Probe("GET", "/api/v1/webhooks/subscriptions", null), "webhook", null);
    }

    /** A scenario whose runner is not written yet: it reports n/a, or why when the route exists. */
    static Scenario pending(String name, int connections, Probe probe, String why) {
        return new Scenario(name, connections, probe.path(), null, Map.of(), null, List.of(), probe, why, null);
    }

    Scenario ceiling(String sqlFile, String... vars) {
        return new Scenario(name, connections, path, lua, env, sqlFile, List.of(vars), probe, runner, target);
    }

    Scenario with(String variable, String value) {
        Map<String, String> more = new LinkedHashMap<>(env);
        more.put(variable, value);
        return new Scenario(name, connections, path, lua, Map.copyOf(more), ceilingSql, ceilingVars, probe, runner,
                target);
    }

    Scenario target(String kind, double value, String text) {
        return new Scenario(name, connections, path, lua, env, ceilingSql, ceilingVars, probe, runner,
                new Target(kind, value, text));
    }

    boolean isRead() {
        return ceilingSql != null;
    }
}
