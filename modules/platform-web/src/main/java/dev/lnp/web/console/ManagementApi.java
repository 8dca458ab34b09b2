package dev.lnp.web.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.internal.console.ConsoleApi.Call;
import dev.lnp.api.internal.console.ConsoleApi.JsonHandler;
import dev.lnp.api.internal.console.ConsoleAuthorization.Permission;
import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.PageExchange;
import dev.lnp.api.internal.http.RequestJson;
import dev.lnp.api.internal.keys.ConnectionAdmin;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The console's operations as JSON for automation with a signed-in session ({@code /console/api/...}): the same
 * services and the same {@link ConsoleAuthorization} rule as the pages, problem+json errors, strict bodies
 * (unknown fields are refused), lists in the {@code {data, pagination}} envelope. A state change needs the
 * session's CSRF token in {@code X-CSRF-Token} (read it from {@code GET /console/api/session}) and, when a
 * browser sends {@code Origin}, the console's origin.
 */
public final class ManagementApi {

    private static final System.Logger LOG = System.getLogger(ManagementApi.class.getName());
    private static final int MAX_BODY = 64 * 1024;

    private final Console console;

    ManagementApi(Console console) {
        this.console = console;
    }

    void routing(HttpRules rules) {
        rules.get("/api/session", json(this::session))
                .get("/api/members", json(this::members))
                .post("/api/members", json(this::invite))
                .patch("/api/members/{id}", json(this::changeRole))
                .delete("/api/members/{id}", json(this::remove))
                .post("/api/members/{id}/transfer-ownership", json(this::transfer))
                .post("/api/members/{id}/resend-invitation", json(this::resendInvitation))
                .get("/api/connections", json(this::connections))
                .post("/api/connections/{id}/rotate", json(this::rotate))
                .post("/api/connections/{id}/revoke", json(this::revoke))
                .get("/api/activity", json(this::activity));
        rules.any("/api/*", json(call -> {
                    throw new ApiProblem(404, "route_not_found", "Not Found",
                            "No route " + call.req().prologue().method().text() + " " + call.req().path().path() + ".");
                }));
    }

    public Handler json(JsonHandler handler) {
        return (req, res) -> {
            var exchange = new ConsoleExchange(req, res, console);
            try {
                Object body = handler.handle(new Call(req, res, exchange));
                res.header(HeaderNames.CACHE_CONTROL, "no-store");
                if (body == null) {
                    res.status(Status.NO_CONTENT_204).send();
                } else {
                    // The v1 envelope: lists come as {data, pagination}, one object as {data}.
                    boolean list = body instanceof ObjectNode node && node.has("pagination");
                    Object envelope = list ? body : java.util.Map.of("data", body);
                    res.header(HeaderNames.CONTENT_TYPE, "application/json");
                    res.send(Json.mapper().writeValueAsBytes(envelope));
                }
            } catch (ApiProblem problem) {
                console.http().problem(res, requestId(req), problem);
            } catch (ConsoleAuthorization.Denied denied) {
                console.http().problem(res, requestId(req), new ApiProblem(403, "forbidden", "Forbidden", denied.getMessage()));
            } catch (Members.Refused refused) {
                console.http().problem(res, requestId(req), problem(refused));
            } catch (IllegalArgumentException e) {
                console.http().problem(res, requestId(req), ApiProblem.conflict("refused", e.getMessage()));
            } catch (IOException | RuntimeException e) {
                if (e instanceof RuntimeException runtime && console.http().isHangUp(runtime, res)) {
                    console.http().reportHangUp(req.prologue().method().text() + " " + req.path().path(),
                            runtime);
                    return;
                }
                LOG.log(Level.ERROR, "Management route " + req.path().path() + " failed", e);
                console.http().problem(res, requestId(req), console.http().forFailure(e));
            }
        };
    }

    private static ApiProblem problem(Members.Refused refused) {
        return switch (refused.status()) {
            case 400 -> new ApiProblem(400, "invalid_request", "Bad Request", refused.getMessage());
            case 404 -> new ApiProblem(404, "not_found", "Not Found", refused.getMessage());
            case 503 -> new ApiProblem(503, "mail_unavailable", "Service Unavailable", refused.getMessage());
            default -> new ApiProblem(refused.status(), "conflict", "Conflict", refused.getMessage());
        };
    }

    private static String requestId(ServerRequest req) {
        return req.headers().first(HeaderNames.create("X-Request-Id")).orElse(UUID.randomUUID().toString());
    }

    /** The signed-in session with a workspace; 401 without one. */
    public ConsoleSession session(PageExchange exchange) {
        var session = exchange.session().orElseThrow(() -> new ApiProblem(401, "not_signed_in", "Unauthorized",
                "Sign in to the console first; these routes use its session cookie."));
        if (!session.hasWorkspace()) {
            throw new ApiProblem(409, "no_workspace_chosen", "Conflict", "Choose a workspace in the console first.");
        }
        return session;
    }

    /** A state change: the session's CSRF token in X-CSRF-Token, and the console's origin if a browser sent one. */
    public ConsoleSession changing(Call call) {
        var session = session(call.exchange());
        String origin = call.req().headers().first(HeaderNames.ORIGIN).orElse(null);
        if (origin != null && !origin.equalsIgnoreCase(console.settings().origin())) {
            throw new ApiProblem(403, "origin_not_allowed", "Forbidden", "Requests from " + origin + " are not accepted.");
        }
        if (!Secrets.same(call.req().headers().first(HeaderNames.create("X-CSRF-Token")).orElse(null),
                session.csrfToken())) {
            throw new ApiProblem(403, "csrf_token_invalid", "Forbidden",
                    "Send the session's csrf_token (GET /console/api/session) in the X-CSRF-Token header.");
        }
        return session;
    }

    private Object session(Call call) {
        var session = session(call.exchange());
        return Json.object().put("email", session.email()).put("user_id", session.userId().toString())
                .put("workspace_id", session.workspaceId().toString()).put("workspace_name", session.workspaceName())
                .put("role", session.role()).put("csrf_token", session.csrfToken());
    }

    private Object members(Call call) {
        var session = session(call.exchange());
        ConsoleAuthorization.require(session, Permission.VIEW_MEMBERS);
        ArrayNode data = Json.mapper().createArrayNode();
        for (var m : console.members().list(session.workspaceId())) {
            data.add(member(m));
        }
        return envelope(data);
    }

    private Object invite(Call call) {
        var session = changing(call);
        ConsoleAuthorization.require(session, Permission.MANAGE_MEMBERS);
        JsonNode body = strictBody(call.req(), Set.of("email", "role"), Set.of("email", "role"));
        var member = console.members().invite(session, body.path("email").asText(), body.path("role").asText(),
                console.invitationOf(session));
        call.res().status(Status.CREATED_201);
        return member(member);
    }

    private Object resendInvitation(Call call) {
        var session = changing(call);
        ConsoleAuthorization.require(session, Permission.MANAGE_MEMBERS);
        var member = console.members().resendInvitation(session, pathId(call), console.invitationOf(session));
        call.res().status(Status.ACCEPTED_202);
        return member(member);
    }

    private Object changeRole(Call call) {
        var session = changing(call);
        ConsoleAuthorization.require(session, Permission.MANAGE_MEMBERS);
        UUID id = pathId(call);
        JsonNode body = strictBody(call.req(), Set.of("role"), Set.of("role"));
        console.members().changeRole(session, id, body.path("role").asText());
        return member(console.members().list(session.workspaceId()).stream().filter(m -> m.id().equals(id))
                .findFirst().orElseThrow());
    }

    private Object remove(Call call) {
        var session = changing(call);
        ConsoleAuthorization.require(session, Permission.MANAGE_MEMBERS);
        console.members().remove(session, pathId(call));
        return null;
    }

    private Object transfer(Call call) {
        var session = changing(call);
        ConsoleAuthorization.require(session, Permission.TRANSFER_OWNERSHIP);
        console.members().transferOwnership(session, pathId(call));
        // The caller's own privileges dropped: their session continues under a new id.
        var exchange = (ConsoleExchange) call.exchange();
        var renewed = console.sessions().renew(session, session.userId(), exchange.userAgent(), exchange.clientIp());
        exchange.startSession(renewed.token());
        return Json.object().put("owner_user_id", pathId(call).toString()).put("csrf_token",
                renewed.session().csrfToken());
    }

    private Object connections(Call call) {
        var session = session(call.exchange());
        ConsoleAuthorization.require(session, Permission.VIEW_CONNECTIONS);
        ArrayNode data = Json.mapper().createArrayNode();
        for (var c : console.connections().list(session.workspaceId())) {
            data.add(connection(c));
        }
        return envelope(data);
    }

    private Object rotate(Call call) {
        var session = changing(call);
        ConsoleAuthorization.require(session, Permission.MANAGE_CONNECTIONS);
        UUID id = pathId(call);
        JsonNode body = strictBody(call.req(), Set.of("grace_seconds"), Set.of());
        long grace = 0;
        if (body.has("grace_seconds")) {
            JsonNode value = body.get("grace_seconds");
            if (!value.canConvertToLong() || !value.isIntegralNumber() || value.asLong() < 0 || value.asLong() > 604_800) {
                throw ApiProblem.invalidField("/grace_seconds", "range", "a whole number of seconds from 0 to 604800");
            }
            grace = value.asLong();
        }
        var connection = connectionOf(session, id);
        var issued = console.connections().rotate(connection.connectionId(), Duration.ofSeconds(grace));
        console.activity().record(session, "connection.rotated", connection.name() + " (" + connection.connectionId() + ")",
                "old keys end after " + grace + " seconds");
        call.res().status(Status.CREATED_201);
        return Json.object().put("connection_id", issued.connectionId().toString()).put("key", issued.key());
    }

    private Object revoke(Call call) {
        var session = changing(call);
        ConsoleAuthorization.require(session, Permission.MANAGE_CONNECTIONS);
        var connection = connectionOf(session, pathId(call));
        console.connections().revoke(connection.connectionId());
        console.activity().record(session, "connection.revoked", connection.name() + " (" + connection.connectionId() + ")",
                null);
        return null;
    }

    private Object activity(Call call) {
        var session = session(call.exchange());
        ConsoleAuthorization.require(session, Permission.VIEW_ACTIVITY);
        ArrayNode data = Json.mapper().createArrayNode();
        for (var e : console.activity().recent(session.workspaceId(), 200)) {
            data.addObject().put("at", e.at().toString()).put("actor_email", e.actorEmail()).put("action", e.action())
                    .put("target", e.target()).put("detail", e.detail());
        }
        return envelope(data);
    }

    private ConnectionAdmin.Listed connectionOf(ConsoleSession session, UUID id) {
        return console.connections().list(session.workspaceId()).stream().filter(c -> c.connectionId().equals(id))
                .findFirst().orElseThrow(() -> ApiProblem.notFound("Connection"));
    }

    /** A malformed id is 400 naming the parameter, as on /api/v1 and the webhook routes; a well-formed unknown one 404. */
    private UUID pathId(Call call) {
        return pathId(call, "id");
    }

    /** The path parameter {@code name} of a console JSON route; 400 naming it when it is not a UUID. */
    UUID pathId(Call call, String name) {
        UUID id = dev.lnp.api.internal.console.Ids.parse(call.req().path().pathParameters().get(name));
        if (id == null) {
            throw console.http().malformedId(name);
        }
        return id;
    }

    public static ObjectNode envelope(ArrayNode data) {
        ObjectNode body = Json.object();
        body.set("data", data);
        body.putObject("pagination").put("page", 1).put("limit", Math.max(data.size(), 1)).put("total", data.size())
                .put("has_more", false);
        return body;
    }

    private static ObjectNode member(Members.Member m) {
        ObjectNode node = Json.object().put("id", m.id().toString()).put("email", m.email()).put("role", m.role())
                .put("created_at", m.createdAt().toString());
        if (m.invitation() != null) {
            node.putObject("invitation_mail").put("state", m.invitation().state())
                    .put("attempts", m.invitation().attempts()).put("last_error", m.invitation().lastError());
        }
        return node;
    }

    private static ObjectNode connection(ConnectionAdmin.Listed c) {
        ObjectNode node = Json.object().put("id", c.connectionId().toString()).put("name", c.name())
                .put("identity_id", c.identityId().toString()).put("preset", c.preset())
                .put("expires_at", text(c.expiresAt())).put("created_at", text(c.createdAt()))
                .put("revoked_at", text(c.revokedAt()));
        ArrayNode scopes = node.putArray("scopes");
        c.scopes().forEach(scopes::add);
        ArrayNode keys = node.putArray("keys");
        Instant now = Instant.now();
        for (var k : c.keys()) {
            keys.addObject().put("prefix", k.prefix()).put("state", k.state(now)).put("legacy", k.legacy())
                    .put("created_at", text(k.createdAt()))
                    .put("valid_until", text(k.validUntil())).put("revoked_at", text(k.revokedAt()))
                    .put("last_used_at", text(k.lastUsedAt()));
        }
        return node;
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    /** The body as a JSON object with only {@code allowed} fields, every {@code required} one present as a string or number. */
    private static JsonNode strictBody(ServerRequest req, Set<String> allowed, Set<String> required) {
        JsonNode body = jsonObject(req);
        List<FieldError> errors = new ArrayList<>();
        body.fieldNames().forEachRemaining(name -> {
            if (!allowed.contains(name)) {
                errors.add(new FieldError("/" + name, "additionalProperties", "unknown field " + name));
            }
        });
        for (String name : required) {
            if (!body.hasNonNull(name) || !body.get(name).isTextual()) {
                errors.add(new FieldError("/" + name, "required", name + " is required and must be a string"));
            }
        }
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid("The body has invalid fields.", errors);
        }
        return body;
    }

    /** The body as a JSON object (application/json, at most 64 KiB); its fields are the caller's to check. */
    public static JsonNode jsonObject(ServerRequest req) {
        // The raw header and the same rule as /api/v1: a malformed parameter or another charset is a 415, not
        // an exception from parsing the header.
        String type = req.headers().first(HeaderNames.CONTENT_TYPE).orElse("");
        if (!RequestJson.isJsonMediaType(type)) {
            throw new ApiProblem(415, "unsupported_media_type", "Unsupported Media Type",
                    "The body must be JSON in UTF-8, sent with Content-Type: application/json.");
        }
        byte[] bytes;
        try (InputStream in = req.content().inputStream()) {
            bytes = in.readNBytes(MAX_BODY + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (bytes.length > MAX_BODY) {
            throw new ApiProblem(413, "payload_too_large", "Content Too Large", "The body is larger than 64 KiB.");
        }
        JsonNode body;
        try {
            body = Json.mapper().readTree(bytes);
        } catch (IOException e) {
            throw ApiProblem.badRequest("malformed_json", "The body is not valid JSON.");
        }
        if (body == null || !body.isObject()) {
            throw ApiProblem.invalidField("", "type", "the body must be a JSON object");
        }
        return body;
    }
}
