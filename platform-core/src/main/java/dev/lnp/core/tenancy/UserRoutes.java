package dev.lnp.core.tenancy;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.RouteSpec;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The people of the caller's workspace, so clients can resolve {@code assignee_id} and delegation users.
 * Runs in the request's transaction (row-level security on {@code users}); never lists another workspace's.
 */
public final class UserRoutes {

    public static final String READ = "users.read";
    /** What both routes answer (each item of the list), published in the OpenAPI document. */
    private static final com.fasterxml.jackson.databind.JsonNode USER =
            dev.lnp.api.Json.resource(UserRoutes.class, "core-schemas/user.json");

    private UserRoutes() {
    }

    public static List<RouteSpec> routes() {
        return List.of(
                RouteSpec.get("/api/v1/users").scope(READ).paginated().returns(USER)
                        .summary("The workspace's people, oldest first").handler(UserRoutes::list),
                RouteSpec.get("/api/v1/users/{id}").scope(READ).returns(USER).summary("One person of the workspace")
                        .handler(UserRoutes::get));
    }

    private static ApiResponse list(ApiRequest req) {
        var h = req.tx().handle();
        long total = h.createQuery("SELECT count(*) FROM lnp_core.users WHERE workspace_id = :ws")
                .bind("ws", req.workspaceId()).mapTo(Long.class).one();
        var users = h.createQuery("""
                        SELECT id, email, display_name, role, created_at FROM lnp_core.users
                         WHERE workspace_id = :ws ORDER BY created_at, id LIMIT :limit OFFSET :offset
                        """)
                .bind("ws", req.workspaceId())
                .bind("limit", req.pageRequest().limit()).bind("offset", req.pageRequest().offset())
                .map((rs, ctx) -> user(rs)).list();
        return ApiResponse.page(users, Page.of(req.pageRequest(), total));
    }

    private static ApiResponse get(ApiRequest req) {
        return ApiResponse.of(req.tx().handle().createQuery("""
                        SELECT id, email, display_name, role, created_at FROM lnp_core.users
                         WHERE workspace_id = :ws AND id = :id
                        """)
                .bind("ws", req.workspaceId()).bind("id", req.pathId("id"))
                .map((rs, ctx) -> user(rs)).findOne().orElseThrow(() -> ApiProblem.notFound("User")));
    }

    private static Map<String, Object> user(ResultSet rs) throws SQLException {
        Map<String, Object> user = new LinkedHashMap<>();
        user.put("id", rs.getObject("id").toString());
        user.put("email", rs.getString("email"));
        user.put("display_name", rs.getString("display_name"));
        user.put("role", rs.getString("role"));
        user.put("created_at", rs.getTimestamp("created_at").toInstant().atOffset(ZoneOffset.UTC).toString());
        return user;
    }
}
