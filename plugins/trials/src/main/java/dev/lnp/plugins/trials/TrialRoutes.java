package dev.lnp.plugins.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.RawRequest;
import dev.lnp.api.http.RawResponse;
import dev.lnp.api.http.ResponseShape;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.people.PageVisitor;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The trial protocol's routes, thin: parsing and answering; the work is in {@link TrialService}. */
final class TrialRoutes {

    static final String MANIFEST = "/.well-known/agent-access.json";
    static final String OPENAPI = "/openapi/agent-trials.json";
    static final String CHALLENGE = "/api/agent-trials/challenge";
    static final String SUBMIT = "/api/agent-trials";
    static final String APPROVE = "/api/agent-trials/approve";
    static final String STATUS = "/api/agent-trials/status";
    static final String TERMS = "/api/agent-trials/terms";
    /** Bumped when the manifest's shape changes incompatibly. */
    static final String MANIFEST_VERSION = "1";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final List<String> MCP_VERSIONS = List.of("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26");

    private final TrialService service;
    private final JsonNode requestSchema;
    private final JsonNode challengeSchema;
    private final JsonNode acceptedSchema;
    private final JsonNode statusSchema;
    private final List<RouteSpec> protocol;

    TrialRoutes(TrialService service) {
        this.service = service;
        this.requestSchema = dev.lnp.api.JsonSchemas.load(TrialRoutes.class, "trial-request.json");
        this.challengeSchema = dev.lnp.api.JsonSchemas.load(TrialRoutes.class, "challenge.json");
        this.acceptedSchema = dev.lnp.api.JsonSchemas.load(TrialRoutes.class, "trial-accepted.json");
        this.statusSchema = dev.lnp.api.JsonSchemas.load(TrialRoutes.class, "trial-status.json");
        this.protocol = List.of(
                RouteSpec.get(MANIFEST).publicRoute().summary("The capability manifest: start here")
                        .raw(this::manifest),
                RouteSpec.get(CHALLENGE).publicRoute().shape(ResponseShape.DIRECT)
                        .summary("A short-lived reasoning challenge to solve before submitting a request")
                        .handler(this::challenge),
                RouteSpec.post(SUBMIT).publicRoute().body(requestSchema).shape(ResponseShape.DIRECT).status(202)
                        .summary("Submit a trial request; the owner gets an approval mail").handler(this::submit),
                RouteSpec.get(STATUS).publicRoute()
                        .summary("Poll the request with Authorization: Bearer <request_token>").raw(this::status),
                RouteSpec.get(APPROVE).publicRoute().summary("The owner's approval page (HTML; changes nothing)")
                        .raw(this::approvalPage),
                RouteSpec.post(APPROVE).publicRoute()
                        .summary("The owner's decision: approve, deny or revoke (HTML form, CSRF-protected)")
                        .raw(this::decide));
    }

    List<RouteSpec> routes() {
        List<RouteSpec> all = new java.util.ArrayList<>(protocol);
        all.add(RouteSpec.get(OPENAPI).publicRoute().summary("OpenAPI 3.1 of the trial protocol").raw(this::openApi));
        all.add(RouteSpec.get(TERMS).publicRoute().summary("The trial terms, as text").raw(this::terms));
        return all;
    }

    // ---- manifest and OpenAPI -----------------------------------------------------------------------------

    private RawResponse manifest(RawRequest req) {
        String base = service.baseUrl(req);
        ObjectNode m = Json.object();
        m.put("version", MANIFEST_VERSION);
        m.putObject("service").put("name", "LNP Workspace Platform")
                .put("description", "Workspaces with CRM contacts and deals, projects, tasks and support tickets, "
                        + "over REST and hosted MCP. An AI agent can ask a person for an isolated trial workspace.");
        ObjectNode mcp = m.putObject("mcp");
        mcp.putArray("endpoints").addObject().put("url", base + "/api/mcp").put("transport", "streamable-http");
        mcp.put("session_url", base + "/api/mcp/session");
        ArrayNode versions = mcp.putArray("protocol_versions");
        MCP_VERSIONS.forEach(versions::add);
        m.putObject("authentication").put("scheme", "bearer")
                .put("header", "Authorization: Bearer <api_key>")
                .put("key_prefix", "lnp_")
                .put("trial_key", "Issued by the status step after the owner approves; works on the MCP endpoint "
                        + "only (REST answers 403 key_not_valid_for_rest). Never put it in a URL.")
                .put("request_token", "Returned by the request step; bearer for the status step only.");
        m.putObject("trial").put("approval_window_hours", TrialScopes.APPROVAL_WINDOW.toHours())
                .put("credential_lifetime_days", TrialScopes.CREDENTIAL_LIFETIME.toDays())
                .put("tool_calls", TrialScopes.TOOL_CALLS)
                .put("surface", "mcp")
                .put("workspace", "a new, isolated workspace with sample data, owned by the approving person");
        ObjectNode steps = m.putObject("steps");
        steps.putObject("challenge").put("method", "GET").put("url", base + CHALLENGE);
        steps.putObject("request").put("method", "POST").put("url", base + SUBMIT)
                .put("content_type", "application/json");
        steps.putObject("status").put("method", "GET").put("url", base + STATUS)
                .put("authorization", "Bearer <request_token>");
        ArrayNode flow = m.putArray("flow");
        flow.add("Read this manifest.").add("GET the challenge and solve it within its expiry.")
                .add("POST the request with the answer; keep the request_token and show the binding_code to your user.")
                .add("The owner approves or denies from the mailed link.")
                .add("Poll the status; stop on a terminal state. The first approved answer carries the key, once.");
        m.putObject("polling").put("initial_interval_seconds", TrialScopes.FIRST_POLL_SECONDS)
                .put("max_interval_seconds", TrialScopes.MAX_POLL_SECONDS)
                .put("honor_retry_after", true)
                .put("slow_down", "429 with code slow_down and Retry-After when polling too fast");
        ArrayNode states = m.putArray("states");
        List.of("pending", "approved", "denied", "expired", "failed", "revoked").forEach(states::add);
        ArrayNode terminal = m.putArray("terminal_states");
        List.of("denied", "expired", "failed", "revoked").forEach(terminal::add);
        m.put("openapi_url", base + OPENAPI);
        m.put("documentation_url", service.config("lnp.trials.documentation_url").orElse(base + TERMS));
        m.put("terms_url", service.config("lnp.trials.terms_url").orElse(base + TERMS));
        byte[] body = m.toPrettyString().getBytes(StandardCharsets.UTF_8);
        String etag = "\"" + HexFormat.of().formatHex(sha256(body), 0, 16) + "\"";
        Map<String, String> headers = Map.of("Cache-Control", "public, max-age=300", "ETag", etag,
                "Access-Control-Allow-Origin", "*");
        if (req.headers("If-None-Match").stream().anyMatch(v -> v.contains(etag))) {
            return new RawResponse(304, headers, null, null);
        }
        return new RawResponse(200, headers, "application/json", body);
    }

    private RawResponse openApi(RawRequest req) {
        return RawResponse.json(200, openApiDocument(service.baseUrl(req)).toString())
                .withHeader("Cache-Control", "public, max-age=300");
    }

    /** The OpenAPI 3.1 document: routes from the RouteSpecs, response bodies from the same schema files. */
    ObjectNode openApiDocument(String base) {
        ObjectNode doc = service.openApiDocuments().document("Agent trials", MANIFEST_VERSION,
                "How an AI agent earns a human-approved, isolated trial workspace: read the manifest, "
                        + "solve the challenge, submit, let the owner approve, poll the status.",
                base, "agent-trials", protocol);
        ObjectNode schemas = (ObjectNode) doc.path("components").path("schemas");
        schemas.set("TrialChallenge", withoutDialect(challengeSchema));
        schemas.set("TrialAccepted", withoutDialect(acceptedSchema));
        schemas.set("TrialStatus", withoutDialect(statusSchema));
        ((ObjectNode) doc.path("components").path("securitySchemes")).putObject("requestToken")
                .put("type", "http").put("scheme", "bearer")
                .put("description", "The request_token of the 202 answer (trq_…); valid on the status route only.");
        ObjectNode paths = (ObjectNode) doc.path("paths");
        json(paths, CHALLENGE, "get", "200", "The challenge", "TrialChallenge");
        json(paths, SUBMIT, "post", "202", "Accepted: the owner was mailed; poll the status URL", "TrialAccepted");
        ObjectNode submit = (ObjectNode) paths.path(SUBMIT).path("post").path("responses");
        submit.putObject("409").put("$ref", "#/components/responses/Problem");
        submit.putObject("422").put("$ref", "#/components/responses/Problem");
        submit.putObject("429").put("$ref", "#/components/responses/Problem");
        ObjectNode status = (ObjectNode) paths.path(STATUS).path("get");
        status.putArray("security").addObject().putArray("requestToken");
        json(paths, STATUS, "get", "200", "The request's state (the key once, when approved)", "TrialStatus");
        ObjectNode statusResponses = (ObjectNode) status.path("responses");
        statusResponses.putObject("401").put("$ref", "#/components/responses/Problem");
        statusResponses.putObject("409").put("description", "capability_consumed: the key was already returned")
                .putObject("content").putObject("application/problem+json").putObject("schema")
                .put("$ref", "#/components/schemas/TrialStatus");
        statusResponses.putObject("429").put("$ref", "#/components/responses/Problem");
        html(paths, APPROVE, "get", "The approval page");
        html(paths, APPROVE, "post", "The page after the decision");
        ObjectNode approveGet = (ObjectNode) paths.path(APPROVE).path("get");
        ArrayNode params = approveGet.putArray("parameters");
        params.addObject().put("name", "request").put("in", "query").put("required", true)
                .putObject("schema").put("type", "string").put("format", "uuid");
        params.addObject().put("name", "key").put("in", "query").put("required", true)
                .putObject("schema").put("type", "string");
        ObjectNode form = ((ObjectNode) paths.path(APPROVE).path("post")).putObject("requestBody").put("required", true)
                .putObject("content").putObject("application/x-www-form-urlencoded").putObject("schema")
                .put("type", "object");
        form.putArray("required").add("request").add("key").add("csrf").add("decision");
        ObjectNode props = form.putObject("properties");
        props.putObject("request").put("type", "string").put("format", "uuid");
        props.putObject("key").put("type", "string");
        props.putObject("csrf").put("type", "string");
        props.putObject("decision").putArray("enum").add("approve").add("deny").add("revoke");
        ObjectNode manifest = (ObjectNode) paths.path(MANIFEST).path("get").path("responses");
        manifest.putObject("200").put("description", "The manifest (cacheable, with ETag)")
                .putObject("content").putObject("application/json").putObject("schema").put("type", "object");
        manifest.putObject("304").put("description", "Not modified (If-None-Match)");
        return doc;
    }

    private static JsonNode withoutDialect(JsonNode schema) {
        ObjectNode copy = schema.deepCopy();
        copy.remove("$schema");
        return copy;
    }

    private static void json(ObjectNode paths, String path, String method, String status, String description,
            String schema) {
        ObjectNode responses = (ObjectNode) paths.path(path).path(method).path("responses");
        responses.remove(status.equals("202") ? "202" : "200");
        responses.putObject(status).put("description", description).putObject("content")
                .putObject("application/json").putObject("schema").put("$ref", "#/components/schemas/" + schema);
    }

    private static void html(ObjectNode paths, String path, String method, String description) {
        ObjectNode responses = (ObjectNode) paths.path(path).path(method).path("responses");
        responses.remove("200");
        responses.putObject("200").put("description", description).putObject("content").putObject("text/html")
                .putObject("schema").put("type", "string");
    }

    private RawResponse terms(RawRequest req) {
        String text = """
                Agent trials: terms

                - A trial is created only when the person who owns the e-mail address approves it, within 24 hours
                  of the request.
                - The trial is a new, separate workspace with sample data, owned by that person. Nothing of any
                  other workspace is reachable from it.
                - The agent gets one key, shown once. It works on the MCP endpoint only, for 7 days after it is
                  issued, and for at most 250 tool calls. The owner can revoke it at any time.
                - Polling: start at 2 seconds, back off to at most 30 seconds, honour Retry-After; faster polling is
                  answered 429 slow_down.
                - Abuse limits apply per owner address and per client; over a limit the answer is 429 with
                  Retry-After. Answers never tell whether an address has an account.

                Protocol: %s (manifest), %s (OpenAPI).
                """.formatted(service.baseUrl(req) + MANIFEST, service.baseUrl(req) + OPENAPI);
        return new RawResponse(200, Map.of("Cache-Control", "public, max-age=300"), "text/plain; charset=utf-8",
                text.getBytes(StandardCharsets.UTF_8));
    }

    // ---- the agent's steps --------------------------------------------------------------------------------

    private ApiResponse challenge(ApiRequest req) {
        Challenges.Challenge c = service.challenge();
        ObjectNode body = Json.object().put("challenge_id", c.id().toString()).put("question", c.question())
                .put("answer_format", c.answerFormat()).put("token", c.token())
                .put("expires_at", c.expiresAt().toString());
        return ApiResponse.of(body);
    }

    private ApiResponse submit(ApiRequest req) {
        TrialService.Accepted a = service.submit(req, req.body());
        ObjectNode body = Json.object().put("state", "pending").put("request_id", a.requestId().toString())
                .put("request_token", a.token()).put("status_url", a.statusUrl())
                .put("poll_interval_seconds", a.pollSeconds()).put("expires_at", a.expiresAt().toString())
                .put("binding_code", a.bindingCode());
        return ApiResponse.status(202, body);
    }

    private RawResponse status(RawRequest req) {
        List<String> auth = req.headers("Authorization");
        if (auth.size() != 1 || !auth.get(0).startsWith("Bearer ")
                || !auth.get(0).substring(7).startsWith(TrialService.TOKEN_PREFIX)
                || auth.get(0).substring(7).length() > 200) {
            throw TrialService.badToken();
        }
        TrialService.StatusAnswer answer = service.status(req, auth.get(0).substring(7).strip());
        byte[] body = answer.body().toString().getBytes(StandardCharsets.UTF_8);
        return new RawResponse(answer.status(), answer.headers(),
                answer.status() >= 400 ? "application/problem+json" : "application/json", body);
    }

    // ---- the owner's page -----------------------------------------------------------------------------------

    private RawResponse approvalPage(RawRequest req) {
        PageVisitor visitor = service.pages().visitor(req);
        Optional<UUID> id = uuid(req.query("request").orElse(null));
        String secret = req.query("key").orElse(null);
        if (id.isEmpty() || secret == null) {
            return visitor.notice(404, "Link not valid", "This approval link is incomplete. Open the link from the "
                    + "e-mail exactly as it was sent.");
        }
        return service.forApprover(id.get(), secret)
                .map(r -> ApprovalPage.request(visitor, r, secret, null))
                .orElseGet(() -> visitor.notice(404, "Link not valid", "This approval link is not valid. Open the "
                        + "link from the e-mail exactly as it was sent."));
    }

    private RawResponse decide(RawRequest req) {
        PageVisitor visitor = service.pages().visitor(req);
        Optional<RawResponse> refused = visitor.checkForm();
        if (refused.isPresent()) {
            return refused.get();
        }
        Optional<UUID> id = uuid(visitor.form("request").orElse(null));
        String secret = visitor.form("key").orElse(null);
        String decision = visitor.form("decision").orElse("");
        Optional<TrialRepository.TrialRequest> request = id.flatMap(i -> service.forApprover(i, secret));
        if (request.isEmpty()) {
            return visitor.notice(404, "Link not valid", "This approval link is not valid.");
        }
        TrialRepository.TrialRequest r = request.get();
        String here = APPROVE + "?request=" + r.id() + "&key=" + secret;
        if ("sign-in".equals(decision)) {
            return visitor.startSignIn(r.ownerEmail(), here);
        }
        if (!List.of("approve", "deny", "revoke").contains(decision)) {
            return visitor.notice(400, "Unknown decision", "Choose Approve, Deny or Revoke on the page.");
        }
        if (!visitor.isSignedInAs(r.ownerEmail())) {
            return visitor.notice(403, "Sign in as the owner", "Only the owner, signed in with the owner's address, "
                    + "can decide. Open the link from the e-mail again and ask for a sign-in link there.");
        }
        try {
            var decided = service.decide(r.id(), secret, decision);
            String notice = switch (decision) {
                case "approve" -> "approved".equals(decided.state())
                        ? "Approved: the workspace is ready and the agent receives its key on its next poll."
                        : "The trial could not be created (" + decided.reason() + ").";
                case "deny" -> "Denied: the agent is told on its next poll.";
                default -> "Revoked: the trial key stopped working.";
            };
            return ApprovalPage.request(visitor, decided, secret, notice);
        } catch (ApiProblem problem) {
            if (problem.status() == 409) {
                RawResponse page = ApprovalPage.request(visitor, service.forApprover(r.id(), secret).orElse(r), secret,
                        "Nothing changed: " + problem.detail());
                return new RawResponse(409, page.headers(), page.contentType(), page.body());
            }
            throw problem;
        }
    }

    private static Optional<UUID> uuid(String value) {
        if (value == null || !value.matches("[0-9a-fA-F-]{36}")) {
            return Optional.empty();
        }
        try {
            return Optional.of(UUID.fromString(value));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
