package dev.lnp.core.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.RawResponse;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.core.config.PlatformConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which steps a route's requests go through, in order, by what the route declares (docs/architecture.md). */
class RouteStepsTest {

    private final PipelineServices services = new PipelineServices(null, null, null, null, null, null, null,
            PlatformConfig.load(null, Map.of(), Map.of()), null, null);

    private List<String> steps(RouteSpec route) {
        return steps(route, Surface.REST);
    }

    private List<String> steps(RouteSpec route, Surface surface) {
        return new RouteHandler("probe", route, surface, services, null).steps();
    }

    @Test
    void anAuthenticatedWriteWithABodyAndAQuotaGoesThroughEveryStep() {
        var route = RouteSpec.post("/api/v1/probe/items").scope("probe.write").quota("probe_writes")
                .body(JsonNodeFactory.instance.objectNode().put("type", "object")).handler(req -> ApiResponse.of(Map.of()));
        assertEquals(List.of("audit", "problems", "respond", "outage", "admit", "path ids", "query", "body",
                "idempotency key", "quota", "recheck admission", "transaction", "idempotency", "invoke", "render"),
                steps(route));
    }

    @Test
    void anAuthenticatedReadHasNoIdempotencySteps() {
        var route = RouteSpec.get("/api/v1/probe/items").scope("probe.read").handler(req -> ApiResponse.of(Map.of()));
        assertEquals(List.of("audit", "problems", "respond", "outage", "admit", "path ids", "query",
                "recheck admission", "transaction", "invoke", "render"), steps(route));
    }

    @Test
    void aPatchHasNoIdempotencySteps() {
        var route = RouteSpec.patch("/api/v1/probe/items/{id}").scope("probe.write")
                .body(JsonNodeFactory.instance.objectNode().put("type", "object")).handler(req -> ApiResponse.of(Map.of()));
        assertEquals(List.of("audit", "problems", "respond", "outage", "admit", "path ids", "query", "body",
                "recheck admission", "transaction", "invoke", "render"), steps(route));
    }

    @Test
    void aPublicReadIsNeitherAdmittedNorChargedNorInATransaction() {
        var route = RouteSpec.get("/api/v1/probe/public").publicRoute().handler(req -> ApiResponse.of(Map.of()));
        assertEquals(List.of("audit", "problems", "respond", "outage", "path ids", "query", "invoke", "render"),
                steps(route));
    }

    @Test
    void aRouteWithoutTransactionKeepsItsQuotaButHasNoTransactionOrReplay() {
        var route = RouteSpec.post("/api/v1/probe/calls").scope("probe.write").quota("probe_writes")
                .withoutTransaction().handler(req -> ApiResponse.of(Map.of()));
        assertEquals(List.of("audit", "problems", "respond", "origin", "outage", "admit", "path ids", "query",
                "idempotency key", "quota", "invoke", "render"), steps(route, Surface.MCP));
    }

    @Test
    void aRawRouteIsAdmittedThenHandsItsHandlerTheUnparsedBody() {
        var route = RouteSpec.post("/api/mcp").scope("mcp.use").raw(req -> RawResponse.empty(202));
        assertEquals(List.of("audit", "problems", "origin", "outage", "admit", "path ids", "invoke raw"),
                new RawRouteHandler("mcp", route, Surface.MCP, services, null).steps());
    }
}
