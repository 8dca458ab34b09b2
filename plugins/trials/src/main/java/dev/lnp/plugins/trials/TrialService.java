package dev.lnp.plugins.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.PluginContext;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.RequestContext;
import dev.lnp.api.internal.keys.KeyIssuer;
import dev.lnp.api.internal.mcp.ToolGateway;
import dev.lnp.api.internal.openapi.OpenApiDocuments;
import dev.lnp.api.internal.workspaces.WorkspaceProvisioning;
import dev.lnp.api.mail.Mailer;
import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.plugins.trials.TrialRepository.TrialRequest;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The agent-trial protocol: challenge, request, status, approval, and the sweeper. Shared by the routes. */
final class TrialService {

    private static final System.Logger LOG = System.getLogger(TrialService.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();
    static final String TOKEN_PREFIX = "trq_";
    private static final String BINDING_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

    private final TrialRepository repository = new TrialRepository();
    private final Challenges challenges = new Challenges();
    private final TrialClock clock;
    private volatile PluginContext context;
    private volatile Limits limits;

    TrialService(TrialClock clock) {
        this.clock = clock;
    }

    void start(PluginContext context) {
        this.context = context;
        this.limits = Limits.from(context);
        clock.allowMoving(context.config("lnp.trials.movable_clock").map(Boolean::parseBoolean).orElse(false));
        byte[] candidate = new byte[32];
        RANDOM.nextBytes(candidate);
        // The row keeps the name it was first stored under; the token key is derived from it (ChallengeToken).
        challenges.useSecret(context.outsideWorkspace(tx -> repository.secret(tx.handle(), "challenge-hmac", candidate)));
    }

    /** How often the sweeper runs ({@code lnp.trials.sweep_interval_ms}, a minute unless set). */
    static Duration sweepInterval(PluginContext context) {
        return Duration.ofMillis(context.config("lnp.trials.sweep_interval_ms").map(Long::parseLong).orElse(60_000L));
    }

    Optional<String> config(String key) {
        return context.config(key).filter(v -> !v.isBlank());
    }

    Instant now() {
        return clock.instant();
    }

    // ---- challenge -------------------------------------------------------------------------------------------

    Challenges.Challenge challenge() {
        return challenges.issue(now());
    }

    // ---- request ---------------------------------------------------------------------------------------------

    /** A request accepted: what the 202 carries. */
    record Accepted(UUID requestId, String token, String statusUrl, int pollSeconds, Instant expiresAt,
            String bindingCode) {
    }

    Accepted submit(RequestContext req, JsonNode body) {
        Instant now = now();
        String email = body.path("owner_email").asText().strip();
        if (!email.matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+") || email.length() > 254) {
            throw ApiProblem.invalidField("/owner_email", "format", "owner_email must be one e-mail address");
        }
        String workspaceName = body.path("workspace_name").asText();
        JsonNode agent = body.path("agent");
        String token = body.path("challenge").path("token").asText();
        String answer = body.path("challenge").path("answer").asText();
        // Signature and expiry first: a forged or stale token costs the client nothing and us no state.
        Challenges.Verified verified = challenges.verify(token, answer, email, workspaceName, now);
        String base = baseUrl(req);
        String ownerKey = email.toLowerCase(Locale.ROOT);
        String client = req.clientAddress().orElse("unknown");
        // Per client, every attempt with a genuine challenge counts (wrong answers too); per owner, only requests
        // whose challenge was solved. Each hit commits on its own, so refused attempts count as well.
        Instant hour = now.truncatedTo(ChronoUnit.HOURS);
        Instant day = now.truncatedTo(ChronoUnit.DAYS);
        long toNextHour = Duration.between(now, hour.plus(Duration.ofHours(1))).toSeconds() + 1;
        long toNextDay = Duration.between(now, day.plus(Duration.ofDays(1))).toSeconds() + 1;
        if (hit("client:" + client, hour) > limits.requestsPerClientPerHour()) {
            throw tooMany("requests_per_client", "Too many trial requests from this client; try again later.",
                    toNextHour);
        }
        // Spend the challenge in a transaction of its own: a wrong answer burns it too.
        boolean fresh = context.outsideWorkspace(tx -> repository.spendChallenge(tx.handle(), verified.id(), now,
                verified.expiresAt()));
        if (!fresh) {
            throw new ApiProblem(409, "challenge_used", "Conflict", "This challenge was already used (each one "
                    + "works once, right or wrong); get a new one from GET /api/agent-trials/challenge.",
                    List.of(new FieldError("/challenge/token", "challenge_used", "already used")), Map.of());
        }
        if (!verified.correct()) {
            throw Challenges.invalid("/challenge/answer", "challenge_wrong", "The answer is wrong for this "
                    + "challenge, owner_email and workspace_name; the challenge is now used: get a new one.");
        }
        if (hit("owner:" + ownerKey, hour) > limits.requestsPerOwnerPerHour()) {
            throw tooMany("requests_per_owner", "Too many trial requests for this owner address; try again later.",
                    toNextHour);
        }
        if (context.outsideWorkspace(tx -> repository.pendingFor(tx.handle(), ownerKey, now)) >= limits.pendingPerOwner()) {
            throw tooMany("pending_per_owner", "This owner address already has the most pending trial requests "
                    + "allowed; wait until the owner decides or they expire.", 600);
        }
        if (hit("mail:" + ownerKey, day) > limits.mailsPerAddressPerDay()) {
            throw tooMany("mails_per_address", "No more approval mail can go to this owner address today.",
                    toNextDay);
        }
        UUID id = UUID.randomUUID();
        String requestToken = TOKEN_PREFIX + secret();
        String approvalSecret = secret();
        String binding = bindingCode();
        Instant expires = now.plus(TrialScopes.APPROVAL_WINDOW);
        var row = new TrialRepository.NewRequest(id, email, workspaceName, agent.path("name").asText().strip(),
                agent.path("vendor").asText().strip(), agent.path("version").asText().strip(),
                body.path("purpose").asText().strip(), binding, hash(requestToken), hash(approvalSecret),
                verified.id(), client, now, expires);
        context.outsideWorkspace(tx -> {
            repository.insert(tx.handle(), row);
            return null;
        });
        try {
            mailer().send(new OutgoingMail(null, email, "Approve an AI agent's trial workspace? Code " + binding,
                    TrialMails.requestText(row, approvalLink(base, id, approvalSecret)),
                    TrialMails.requestHtml(row, approvalLink(base, id, approvalSecret)), "agent-trial-request"));
        } catch (IllegalArgumentException refused) {
            // The mailer's stricter address check: the request can never be approved, so it ends here.
            context.outsideWorkspace(tx -> repository.finishIf(tx.handle(), id, "pending", "failed",
                    "owner_email_undeliverable", now));
            throw ApiProblem.invalidField("/owner_email", "format", "owner_email must be one plain address such as "
                    + "ada@example.com");
        }
        return new Accepted(id, requestToken, base + TrialRoutes.STATUS, TrialScopes.FIRST_POLL_SECONDS, expires,
                binding);
    }

    private int hit(String subject, Instant window) {
        return context.outsideWorkspace(tx -> repository.hit(tx.handle(), subject, window));
    }

    static String approvalLink(String base, UUID id, String secret) {
        return base + TrialRoutes.APPROVE + "?request=" + id + "&key=" + secret;
    }

    // ---- status ----------------------------------------------------------------------------------------------

    /** What the status endpoint answers: status code, headers, body. */
    record StatusAnswer(int status, Map<String, String> headers, ObjectNode body) {
    }

    StatusAnswer status(RequestContext req, String requestToken) {
        String base = baseUrl(req);
        Instant now = now();
        // Everything that is plain SQL happens under the row lock; key issue and revocation (core services with
        // transactions of their own) happen after it commits, guarded by conditional updates.
        Polled polled = context.outsideWorkspace(tx -> {
            TrialRequest r = repository.byTokenForUpdate(tx.handle(), hash(requestToken))
                    .orElseThrow(TrialService::badToken);
            if ("pending".equals(r.state()) && !now.isBefore(r.expiresAt())) {
                repository.finish(tx.handle(), r.id(), "expired", "approval_window_passed", now);
                return new Polled(repository.byId(tx.handle(), r.id(), false).orElseThrow(), false, 0, null);
            }
            if ("approved".equals(r.state()) && r.trialEndsAt() != null && !now.isBefore(r.trialEndsAt())) {
                repository.finish(tx.handle(), r.id(), "expired", "trial_ended", now);
                return new Polled(repository.byId(tx.handle(), r.id(), false).orElseThrow(), false, 0, r);
            }
            if ("pending".equals(r.state())) {
                if (r.nextPollAt() != null && now.isBefore(r.nextPollAt().minusMillis(500))) {
                    long wait = Math.max(1, (Duration.between(now, r.nextPollAt()).toMillis() + 999) / 1000);
                    throw new ApiProblem(429, "slow_down", "Too Many Requests", "Polled too soon: wait " + wait
                            + " s (Retry-After) before the next status request.", List.of(),
                            Map.of("Retry-After", String.valueOf(wait)));
                }
                int interval = pollInterval(Duration.between(r.createdAt(), now));
                repository.polled(tx.handle(), r.id(), now, now.plusSeconds(interval));
                return new Polled(r, false, interval, null);
            }
            if ("approved".equals(r.state()) && r.keyDeliveredAt() == null) {
                repository.claimKey(tx.handle(), r.id(), now);
                return new Polled(r, true, 0, null);
            }
            return new Polled(r, false, 0, null);
        });
        TrialRequest r = polled.request();
        if (polled.ended() != null) {
            afterTrialEnded(polled.ended(), now);
        }
        ObjectNode body = Json.object().put("state", r.state()).put("request_id", r.id().toString())
                .put("terminal", r.terminal());
        if ("pending".equals(r.state())) {
            body.put("expires_at", r.expiresAt().toString()).put("poll_interval_seconds", polled.interval());
            return new StatusAnswer(200, Map.of("Retry-After", String.valueOf(polled.interval()),
                    "Cache-Control", "no-store"), body);
        }
        if ("approved".equals(r.state()) && !polled.deliverKey()) {
            ObjectNode problem = problem(req, 409, "capability_consumed", "Conflict", "The key of this trial was "
                    + "returned once, at " + r.keyDeliveredAt() + ", and is never shown again. Use the key you "
                    + "received; if it is lost, ask the owner for a new trial.");
            problem.put("state", "approved").put("trial_request_id", r.id().toString()).put("terminal", false)
                    .put("workspace_id", r.trialWorkspaceId().toString()).put("mcp_url", base + "/api/mcp");
            if (r.keyExpiresAt() != null) {
                problem.put("key_expires_at", r.keyExpiresAt().toString());
            }
            return new StatusAnswer(409, Map.of("Cache-Control", "no-store"), problem);
        }
        if ("approved".equals(r.state())) {
            Instant keyExpires = now.plus(TrialScopes.CREDENTIAL_LIFETIME).truncatedTo(ChronoUnit.SECONDS);
            KeyIssuer.IssuedKey key;
            try {
                key = keys().issue(new KeyIssuer.KeyGrant(r.trialWorkspaceId(),
                        "Agent trial: " + cut(oneLine(r.agentName() + " " + r.agentVersion()), 180),
                        TrialScopes.TRIAL_KEY_PRESET, realExpiry(keyExpires, now), true, TrialScopes.TOOL_CALLS));
            } catch (RuntimeException e) {
                context.outsideWorkspace(tx -> repository.unclaimKey(tx.handle(), r.id()));
                throw e;
            }
            boolean recorded = context.outsideWorkspace(tx -> repository.keyDelivered(tx.handle(), r.id(),
                    key.connectionId(), now, keyExpires));
            if (!recorded) {
                // Revoked (or ended) while the key was being issued: it must not reach the agent.
                keys().revoke(key.connectionId());
                return status(req, requestToken);
            }
            body.put("api_key", key.key()).put("mcp_url", base + "/api/mcp")
                    .put("mcp_session_url", base + "/api/mcp/session")
                    .put("key_expires_at", keyExpires.toString())
                    .put("tool_call_limit", TrialScopes.TOOL_CALLS)
                    .put("workspace_id", r.trialWorkspaceId().toString())
                    .put("workspace_name", r.workspaceName());
            return new StatusAnswer(200, Map.of("Cache-Control", "no-store"), body);
        }
        body.put("reason", r.reason());
        if (r.decidedAt() != null) {
            body.put("decided_at", r.decidedAt().toString());
        }
        return new StatusAnswer(200, Map.of("Cache-Control", "no-store"), body);
    }

    /** What the locked part of a status request decided. */
    private record Polled(TrialRequest request, boolean deliverKey, int interval, TrialRequest ended) {
    }

    /**
     * The key's expiry for the core, which checks it against the real time: the same instant, shifted back by
     * however far the trials' (test) clock was moved, so both agree on the trial's end.
     */
    private static Instant realExpiry(Instant trialTime, Instant trialNow) {
        return Instant.now().plus(Duration.between(trialNow, trialTime));
    }

    /** Start at 2 s; 5 s after two minutes, 15 s after ten, 30 s after an hour (the manifest's back-off). */
    static int pollInterval(Duration age) {
        if (age.compareTo(Duration.ofMinutes(2)) < 0) {
            return TrialScopes.FIRST_POLL_SECONDS;
        }
        if (age.compareTo(Duration.ofMinutes(10)) < 0) {
            return 5;
        }
        if (age.compareTo(Duration.ofHours(1)) < 0) {
            return 15;
        }
        return TrialScopes.MAX_POLL_SECONDS;
    }

    // ---- approval --------------------------------------------------------------------------------------------

    /** The request the approval link names, when the link's secret matches. */
    Optional<TrialRequest> forApprover(UUID requestId, String secret) {
        if (secret == null || secret.isBlank()) {
            return Optional.empty();
        }
        Instant now = now();
        return context.outsideWorkspace(tx -> {
            Optional<TrialRequest> found = repository.byId(tx.handle(), requestId, false);
            if (found.isEmpty() || !MessageDigest.isEqual(found.get().approvalHash(), hash(secret))) {
                return Optional.<TrialRequest>empty();
            }
            TrialRequest r = found.get();
            if ("pending".equals(r.state()) && !now.isBefore(r.expiresAt())) {
                repository.finish(tx.handle(), r.id(), "expired", "approval_window_passed", now);
                return repository.byId(tx.handle(), r.id(), false);
            }
            return Optional.of(r);
        });
    }

    /** The owner's decision: approve, deny or (for an approved trial) revoke. Returns the request afterwards. */
    TrialRequest decide(UUID requestId, String secret, String decision) {
        TrialRequest r = forApprover(requestId, secret).orElseThrow(() -> ApiProblem.notFound("trial request"));
        Instant now = now();
        switch (decision) {
            case "approve" -> {
                boolean claimed = context.outsideWorkspace(tx -> repository.claimApproval(tx.handle(), r.id(), now));
                if (!claimed) {
                    throw ApiProblem.conflict("not_pending", "This request is no longer waiting for a decision.");
                }
                approve(r, now);
            }
            case "deny" -> {
                boolean done = context.outsideWorkspace(tx -> repository.finishIf(tx.handle(), r.id(), "pending",
                        "denied", "denied_by_owner", now));
                if (!done) {
                    throw ApiProblem.conflict("not_pending", "This request is no longer waiting for a decision.");
                }
            }
            case "revoke" -> {
                boolean done = context.outsideWorkspace(tx -> repository.finishIf(tx.handle(), r.id(), "approved",
                        "revoked", "revoked_by_owner", now));
                if (!done) {
                    throw ApiProblem.conflict("not_approved", "Only an approved, running trial can be revoked.");
                }
                TrialRequest revoked = context.outsideWorkspace(tx -> repository.byId(tx.handle(), r.id(), false))
                        .orElseThrow();
                if (revoked.connectionId() != null) {
                    keys().revoke(revoked.connectionId());
                }
                publish(revoked, TrialEvents.REVOKED, "revoked", now);
            }
            default -> throw ApiProblem.invalidField("/decision", "enum", "decision is approve, deny or revoke");
        }
        return context.outsideWorkspace(tx -> repository.byId(tx.handle(), r.id(), false)).orElseThrow();
    }

    /** Creates and seeds the workspace for a request this caller has claimed, then records the outcome. */
    private void approve(TrialRequest r, Instant now) {
        WorkspaceProvisioning.ProvisionedWorkspace ws;
        try {
            ws = context.service(WorkspaceProvisioning.class).orElseThrow()
                    .create(r.workspaceName(), r.ownerEmail(), true);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "agent trial " + r.id() + ": the workspace could not be created", e);
            context.outsideWorkspace(tx -> repository.finishIf(tx.handle(), r.id(), "pending", "failed",
                    "workspace_not_created", now));
            return;
        }
        // Sample data through the other plugins' public tools, with a key that lives only for the seeding.
        KeyIssuer.IssuedKey seedKey = keys().issue(new KeyIssuer.KeyGrant(ws.workspaceId(), "Trial sample data",
                TrialScopes.SEED_KEY_PRESET, Instant.now().plus(Duration.ofMinutes(10)), false, null));
        try {
            List<String> created = new SampleData(context.service(ToolGateway.class).orElseThrow())
                    .seed(seedKey.key());
            LOG.log(Level.INFO, "agent trial {0}: workspace {1} created with {2} sample items", r.id(),
                    ws.workspaceId(), String.valueOf(created.size()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "agent trial " + r.id() + ": seeding sample data failed", e);
            context.outsideWorkspace(tx -> repository.finishIf(tx.handle(), r.id(), "pending", "failed",
                    "sample_data_failed", now));
            return;
        } finally {
            keys().revoke(seedKey.connectionId());
        }
        boolean approved = context.outsideWorkspace(tx -> repository.approved(tx.handle(), r.id(), ws.workspaceId(),
                now, now.plus(TrialScopes.CREDENTIAL_LIFETIME)));
        if (!approved) {
            throw ApiProblem.conflict("not_pending", "This request expired while its workspace was being created.");
        }
        TrialRequest done = context.outsideWorkspace(tx -> repository.byId(tx.handle(), r.id(), false)).orElseThrow();
        publish(done, TrialEvents.APPROVED, "approved", now);
        mailer().send(new OutgoingMail(null, r.ownerEmail(), "Trial workspace created: "
                + cut(oneLine(r.workspaceName()), 80), TrialMails.approvedText(done), null, "agent-trial-approved"));
    }

    // ---- console ---------------------------------------------------------------------------------------------

    /** The trials whose workspace this is, newest first (for its owner's console). */
    List<TrialRequest> trialsOf(UUID workspaceId) {
        return context.outsideWorkspace(tx -> repository.ofWorkspace(tx.handle(), workspaceId));
    }

    Integer callsLeft(UUID connectionId) {
        return keys().state(connectionId).map(KeyIssuer.KeyState::toolCallsLeft).orElse(null);
    }

    /** The owner revokes from the console: the same move as on the approval page. */
    Boolean revokeFromConsole(TrialRequest r) {
        Instant now = now();
        boolean done = context.outsideWorkspace(tx -> repository.finishIf(tx.handle(), r.id(), "approved", "revoked",
                "revoked_by_owner", now));
        if (!done) {
            throw ApiProblem.conflict("not_approved", "Only an approved, running trial can be revoked.");
        }
        TrialRequest revoked = context.outsideWorkspace(tx -> repository.byId(tx.handle(), r.id(), false)).orElseThrow();
        if (revoked.connectionId() != null) {
            keys().revoke(revoked.connectionId());
        }
        publish(revoked, TrialEvents.REVOKED, "revoked", now);
        return true;
    }

    // ---- sweeper ---------------------------------------------------------------------------------------------

    /** Moves overdue pending requests and ended trials to expired (revoking their keys). */
    int sweep() {
        Instant now = now();
        List<TrialRequest> ended = context.outsideWorkspace(tx -> {
            repository.expirePending(tx.handle(), now);
            List<TrialRequest> list = repository.endedTrials(tx.handle(), now);
            for (TrialRequest r : list) {
                repository.finish(tx.handle(), r.id(), "expired", "trial_ended", now);
            }
            repository.purge(tx.handle(), now);
            return list;
        });
        ended.forEach(r -> afterTrialEnded(r, now));
        return ended.size();
    }

    private void afterTrialEnded(TrialRequest r, Instant now) {
        if (r.connectionId() != null) {
            keys().revoke(r.connectionId());
        }
        publish(r, TrialEvents.EXPIRED, "expired", now);
    }

    private void publish(TrialRequest r, String event, String state, Instant now) {
        if (r.trialWorkspaceId() == null) {
            return;
        }
        ObjectNode payload = Json.object().put("request_id", r.id().toString()).put("state", state)
                .put("at", now.toString());
        payload.putObject("agent").put("name", r.agentName()).put("vendor", r.agentVendor())
                .put("version", r.agentVersion());
        context.inWorkspace(r.trialWorkspaceId(), tx -> {
            tx.events().publish(event, payload);
            return null;
        });
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    /**
     * The origin for links: {@code lnp.base.url} when set; otherwise the request's Host, but only a loopback one
     * (a development machine), as {@code http://localhost:<port>}. A forged Host header can never put a foreign origin into an owner's mail.
     */
    String baseUrl(RequestContext req) {
        Optional<String> configured = context.config("lnp.base.url").filter(v -> !v.isBlank());
        if (configured.isPresent()) {
            String base = configured.get().strip();
            return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        }
        String host = req.headers("Host").stream().findFirst().orElse("");
        try {
            URI uri = URI.create("http://" + host);
            String name = uri.getHost();
            if (name != null && (name.equals("localhost") || name.equals("127.0.0.1") || name.equals("[::1]"))
                    && uri.getPath().isEmpty() && uri.getUserInfo() == null) {
                // The console's own default origin on a development machine, so its sign-in pages agree.
                return "http://localhost" + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
            }
        } catch (IllegalArgumentException e) {
            // falls through
        }
        throw new ApiProblem(503, "base_url_not_configured", "Service Unavailable", "This deployment has not set "
                + "lnp.base.url, so it cannot build the links of the trial protocol.");
    }

    dev.lnp.api.internal.people.PeoplePages pages() {
        return context.service(dev.lnp.api.internal.people.PeoplePages.class).orElseThrow();
    }

    OpenApiDocuments openApiDocuments() {
        return context.require(OpenApiDocuments.class);
    }

    private KeyIssuer keys() {
        return context.service(KeyIssuer.class).orElseThrow();
    }

    private Mailer mailer() {
        return context.service(Mailer.class).orElseThrow();
    }

    private static ApiProblem tooMany(String limit, String detail, long retryAfter) {
        return new ApiProblem(429, "trial_limit_exceeded", "Too Many Requests", detail,
                List.of(new FieldError("", limit, detail)), Map.of("Retry-After", String.valueOf(retryAfter)));
    }

    static ApiProblem badToken() {
        return new ApiProblem(401, "invalid_request_token", "Unauthorized", "Send the request token from the 202 "
                + "answer as Authorization: Bearer trq_…; it works on this endpoint only.", List.of(),
                Map.of("WWW-Authenticate", "Bearer realm=\"agent-trials\""));
    }

    /**
     * A problem body written by hand (the status answer adds the trial's fields to it), shaped like every other:
     * the platform's problem type and the request id of this HTTP request.
     */
    static ObjectNode problem(RequestContext req, int status, String code, String title, String detail) {
        return Json.object().put("type", ApiProblem.typeOf(code)).put("title", title).put("status", status)
                .put("detail", detail).put("code", code).put("request_id", req.requestId());
    }

    static byte[] hash(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String secret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String bindingCode() {
        StringBuilder code = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            if (i == 3) {
                code.append('-');
            }
            code.append(BINDING_ALPHABET.charAt(RANDOM.nextInt(BINDING_ALPHABET.length())));
        }
        return code.toString();
    }

    static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    static String oneLine(String s) {
        return s.replaceAll("[\\r\\n\\t]+", " ");
    }
}
