package dev.lnp.core.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.lnp.api.Json;
import dev.lnp.api.Principal;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.http.RawResponse;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.http.Surface;
import dev.lnp.core.db.Database;
import dev.lnp.core.db.WorkspaceTransactions;
import dev.lnp.core.limits.IdempotencyStore;
import dev.lnp.core.logging.RequestLogContext;
import dev.lnp.core.validation.BodyValidator;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One plugin route wrapped in the shared pipeline: authentication, scope, limits, query and body validation,
 * a workspace transaction around the handler, the response envelope, and problem+json for every failure.
 * Everything route-specific (schemas, validators) is prepared when the route is built, not per request.
 */
final class RouteHandler implements Handler {

    private static final System.Logger LOG = System.getLogger(RouteHandler.class.getName());

    private final String pluginId;
    private final RouteSpec route;
    private final PipelineServices services;
    private final QueryValidator queryValidator;
    private final PathIds pathIds;
    private final BodyValidator bodyValidator;
    private final ReadDeadlines deadlines;

    RouteHandler(String pluginId, RouteSpec route, PipelineServices services, ReadDeadlines deadlines) {
        this.deadlines = deadlines;
        this.pluginId = pluginId;
        this.route = route;
        this.services = services;
        this.queryValidator = new QueryValidator(route);
        this.pathIds = new PathIds(route);
        this.bodyValidator = route.bodySchema() == null ? null
                : BodyValidator.compile("route:" + route.method() + " " + route.path(), route.bodySchema());
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        String requestId = RequestIds.of(req, res);
        long started = System.nanoTime();
        PipelineServices.Caller caller = null;
        int status = 500;
        // Log lines written while serving (here, in the plugin, in the core) carry the request's fields.
        RequestLogContext logContext = RequestLogContext.open(requestId, route.method() + " " + route.path());
        // A wait for a pooled connection ends with a 503 as soon as the database is found gone, not after 5 s.
        Database.WaitScope connectionWaits = Database.cutShortOnOutage();
        try {
            if (route.surface() == Surface.MCP) {
                services.checkOrigin(req);
            }
            if (services.outage().isDown()) {
                throw Problems.databaseUnavailable();
            }
            caller = route.isPublic() ? null : services.admit(req, route, pluginId);
            if (caller != null) {
                RequestLogContext.workspace(caller.principal().workspaceId());
            }
            PipelineServices.rateHeaders(caller).forEach((k, v) -> res.header(HeaderNames.create(k), v));
            pathIds.validate(pathParameters(req));
            if (route.isRaw()) {
                status = runRaw(new RawRequestImpl(requestId, req, req.content().hasEntity() ? readCapped(req)
                        : new byte[0], caller, route.path()), req, res);
                return;
            }
            PageRequest page = queryValidator.validate(query(req));
            JsonNode body = readBody(req);
            Rendered rendered = run(requestId, caller, req, page, body);
            status = rendered.status();
            res.status(Status.create(status));
            if (rendered.replayed()) {
                res.header(HeaderNames.create("Idempotent-Replayed"), "true");
            }
            if (rendered.body() == null) {
                res.send();
            } else {
                ResponseWriter.send(res, rendered.body());
            }
        } catch (ApiProblem problem) {
            status = problem.status();
            Problems.write(res, requestId, problem);
        } catch (RuntimeException e) {
            if (clientHungUp(e, res)) {
                // The client hung up while its answer was being written (a closed tab, a load generator
                // stopping): nothing can reach it any more and nothing failed here, so no error and no
                // problem response on the dead connection; the audit keeps the answer it was given.
                LOG.log(Level.DEBUG, () -> "request " + requestId + ": the client closed the connection before the "
                        + "response was written (" + e.getMessage() + ")");
                return;
            }
            ApiProblem problem = Problems.forFailure(e);
            status = problem.status();
            if (status == 503) {
                // One line: during an outage every request lands here, and the cause is always the same.
                services.outage().reportUnreachable();
                LOG.log(Level.WARNING, "request " + requestId + " answered 503: the database is unreachable ("
                        + e + ")");
            } else {
                LOG.log(Level.ERROR, "request " + requestId + " failed: " + route.method() + " " + route.path(), e);
            }
            Problems.write(res, requestId, problem);
        } finally {
            services.audit(caller, route.surface().id(), route.method().name(), route.path(), requestId, status,
                    System.nanoTime() - started);
            connectionWaits.close();
            logContext.close();
        }
    }

    /**
     * Whether a failure is the connection dying under an answer already handed to the server. Helidon 4.4 let the
     * socket's {@link UncheckedIOException} through; 4.5 wraps it in a {@link CloseConnectionException}
     * ({@code ServerConnectionException: Failed to write response}), so both are recognised, and only once the
     * response counts as sent: before that, an I/O failure is ours to report.
     */
    private static boolean clientHungUp(RuntimeException e, ServerResponse res) {
        return res.isSent() && (e instanceof UncheckedIOException || e instanceof CloseConnectionException);
    }

    /** The TCP peer's address (forwarding headers are not trusted). */
    static Optional<String> clientAddress(ServerRequest req) {
        return req.remotePeer().address() instanceof java.net.InetSocketAddress address && address.getAddress() != null
                ? Optional.of(address.getAddress().getHostAddress()) : Optional.empty();
    }

    private static Map<String, String> pathParameters(ServerRequest req) {
        Map<String, String> pathParams = new LinkedHashMap<>();
        req.path().pathParameters().toMap().forEach((k, v) -> pathParams.put(k, v.get(0)));
        return pathParams;
    }

    /** Runs a raw route's handler and writes what it answers; returns the status for the audit. */
    private int runRaw(RawRequestImpl request, ServerRequest req, ServerResponse res) {
        RawResponse response;
        try {
            response = route.rawHandler().handle(request);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        if (response == null) {
            throw new IllegalStateException("raw handler of " + route.method() + " " + route.path() + " returned null");
        }
        response.headers().forEach((k, v) -> res.header(HeaderNames.create(k), v));
        res.status(Status.create(response.status()));
        if (response.isStream()) {
            writeStream(response, res);
            return response.status();
        }
        if (response.body() == null) {
            res.send();
        } else {
            if (response.contentType() != null) {
                res.header(HeaderNames.CONTENT_TYPE, response.contentType());
            }
            res.send(response.body());
        }
        return response.status();
    }

    /**
     * A streamed raw answer (e.g. Server-Sent Events): headers first, then the handler writes and flushes on this
     * virtual thread until it returns. No read deadline is armed while it runs (those bound request reads only),
     * and a client that goes away ends it quietly: a write to its closed socket throws, which is not a failure.
     */
    private void writeStream(RawResponse response, ServerResponse res) {
        if (response.contentType() != null) {
            res.header(HeaderNames.CONTENT_TYPE, response.contentType());
        }
        try (java.io.OutputStream out = res.outputStream()) {
            response.stream().write(out);
        } catch (IOException | UncheckedIOException | CloseConnectionException e) {
            LOG.log(Level.DEBUG, () -> "stream " + route.method() + " " + route.path() + " ended by the client ("
                    + e.getMessage() + ")");
        }
    }

    /** A response ready to send: produced inside the transaction so an idempotent replay stores the same bytes. */
    private record Rendered(int status, ResponseWriter.Body body, boolean replayed) {
    }

    private Rendered run(String requestId, PipelineServices.Caller caller, ServerRequest req, PageRequest page,
            JsonNode body) {
        Map<String, String> pathParams = pathParameters(req);
        if (caller == null) {
            return render(invoke(new ApiRequestImpl(requestId, Optional.empty(), pathParams, query(req), page, body,
                    null, null, route.path(), req)));
        }
        Principal p = caller.principal();
        String idempotencyKey = idempotencyKey(req);
        if (!route.transactional()) {
            return runWithoutTransaction(requestId, caller, req, page, body, pathParams, idempotencyKey);
        }
        if (route.quota() != null) {
            services.takeQuota(caller, route.quota());
        }
        boolean succeeded = false;
        try {
            Rendered rendered = services.transactions().inWorkspace(p.workspaceId(), tx -> {
                if (idempotencyKey != null) {
                    var stored = services.idempotency().claim(tx.handle(), p.workspaceId(), p.connectionId(),
                            idempotencyKey, route.method() + " " + req.path().path(), requestHash(body));
                    if (stored.isPresent()) {
                        byte[] storedBody = stored.get().body();
                        return new Rendered(stored.get().status(),
                                storedBody == null ? null : ResponseWriter.of(storedBody), true);
                    }
                }
                Rendered fresh = render(invoke(
                        new ApiRequestImpl(requestId, Optional.of(p), pathParams, query(req), page, body, tx,
                                caller, route.path(), req)));
                if (idempotencyKey != null) {
                    services.idempotency().complete(tx.handle(), p.connectionId(), idempotencyKey, fresh.status(),
                            fresh.body() == null ? null : fresh.body().toByteArray());
                }
                return fresh;
            });
            succeeded = !rendered.replayed();
            return rendered;
        } catch (WorkspaceTransactions.WorkFailed e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            if (route.quota() != null && !succeeded) {
                services.giveBackQuota(caller, route.quota());
            }
        }
    }

    /** A route whose handler opens what transactions it needs through platform services (e.g. tool calls). */
    private Rendered runWithoutTransaction(String requestId, PipelineServices.Caller caller, ServerRequest req,
            PageRequest page, JsonNode body, Map<String, String> pathParams, String idempotencyKey) {
        if (idempotencyKey != null) {
            throw new ApiProblem(400, "idempotency_not_supported", "Bad Request", route.method() + " " + route.path()
                    + " does not take an Idempotency-Key: its effects commit in transactions of their own.");
        }
        if (route.quota() != null) {
            services.takeQuota(caller, route.quota());
        }
        boolean succeeded = false;
        try {
            Rendered rendered = render(invoke(new ApiRequestImpl(requestId, Optional.of(caller.principal()),
                    pathParams, query(req), page, body, null, caller, route.path(), req)));
            succeeded = true;
            return rendered;
        } finally {
            if (route.quota() != null && !succeeded) {
                services.giveBackQuota(caller, route.quota());
            }
        }
    }

    private String idempotencyKey(ServerRequest req) {
        if (route.method() != dev.lnp.api.http.HttpMethod.POST) {
            return null;
        }
        Optional<String> key = req.headers().first(HeaderNames.create(IdempotencyStore.HEADER));
        key.ifPresent(IdempotencyStore::checkKey);
        return key.orElse(null);
    }

    private static byte[] requestHash(JsonNode body) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256")
                    .digest(body.isMissingNode() ? new byte[0] : Json.mapper().writeValueAsBytes(body));
        } catch (java.security.NoSuchAlgorithmException | JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private ApiResponse invoke(ApiRequestImpl request) {
        try {
            ApiResponse response = route.handler().handle(request);
            if (response == null) {
                throw new IllegalStateException("handler of " + route.method() + " " + route.path() + " returned null");
            }
            return response;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, List<String>> query(ServerRequest req) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        for (String name : req.query().names()) {
            query.put(name, req.query().all(name));
        }
        return query;
    }

    private JsonNode readBody(ServerRequest req) {
        if (bodyValidator == null) {
            return MissingNode.getInstance();
        }
        String contentType = req.headers().first(HeaderNames.CONTENT_TYPE).orElse("");
        if (!Json.isJsonMediaType(contentType)) {
            throw new ApiProblem(415, "unsupported_media_type", "Unsupported Media Type",
                    "The body must be JSON in UTF-8, sent with Content-Type: application/json.");
        }
        byte[] bytes = readCapped(req);
        JsonNode body;
        try {
            body = Json.readRequest(bytes);
        } catch (Json.InvalidJson e) {
            throw new ApiProblem(400, "invalid_json", "Bad Request", e.getMessage(),
                    List.of(new FieldError("", "json", "invalid JSON")), Map.of());
        }
        if (body == null || body.isMissingNode()) {
            throw new ApiProblem(400, "missing_body", "Bad Request", "This route needs a JSON body.");
        }
        List<FieldError> errors = bodyValidator.validate(body);
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors.size() == 1 ? errors.get(0).message() : summary(errors), errors);
        }
        return body;
    }

    /** "N fields are invalid: a, b, …": the first few fields by name, however many there are. */
    private static String summary(List<FieldError> errors) {
        List<String> fields = errors.stream().map(e -> e.pointer().isEmpty() ? "body" : e.pointer()).distinct()
                .limit(SUMMARY_FIELDS + 1).toList();
        return errors.size() + " fields are invalid: " + String.join(", ", fields.subList(0,
                Math.min(SUMMARY_FIELDS, fields.size()))) + (fields.size() > SUMMARY_FIELDS ? " and more" : "");
    }

    private static final int SUMMARY_FIELDS = 10;

    private byte[] readCapped(ServerRequest req) {
        long max = services.maxBodyBytes();
        Optional<Long> declared = req.headers().contentLength().stream().boxed().findFirst();
        if (declared.isPresent() && declared.get() > max) {
            throw tooLarge(max);
        }
        deadlines.arm();
        try (InputStream in = req.content().inputStream()) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
            if (bytes.length > max) {
                throw tooLarge(max);
            }
            return bytes;
        } catch (IOException | RuntimeException e) {
            if (e instanceof ApiProblem problem) {
                throw problem;
            }
            // Cut off, timed out or malformed (a bad chunk size): the client's fault, and what is left of the body
            // on the connection cannot be framed any more, so the answer closes it.
            ClientFaults.report("400 unreadable body " + route.method() + " " + route.path() + " ("
                    + e.getClass().getSimpleName() + ")");
            throw new ApiProblem(400, "unreadable_body", "Bad Request", "The body could not be read: it was cut "
                    + "off, too slow, or its chunked framing is malformed.", List.of(), Map.of("Connection", "close"));
        } finally {
            deadlines.disarm();
            // An interrupt meant for a body read that finished just in time must not hit the handler's work.
            Thread.interrupted();
        }
    }

    private static ApiProblem tooLarge(long max) {
        return new ApiProblem(413, "payload_too_large", "Content Too Large",
                "The body is larger than " + max + " bytes.");
    }

    private Rendered render(ApiResponse result) {
        int status = result.status() != 0 ? result.status() : route.successStatus();
        if (status == 204) {
            return new Rendered(status, null, false);
        }
        return new Rendered(status, ResponseWriter.render(result, route.shape()), false);
    }

}
