package dev.lnp.core.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Principal;
import dev.lnp.api.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.RequestContext;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.internal.mcp.McpCaller;
import dev.lnp.api.internal.mcp.ToolCallFilter;
import dev.lnp.api.internal.mcp.ToolCallPage;
import dev.lnp.api.internal.mcp.ToolCallRecord;
import dev.lnp.api.internal.mcp.ToolDenial;
import dev.lnp.api.internal.mcp.ToolEntry;
import dev.lnp.api.internal.mcp.ToolGateway;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.core.auth.KeyRecord;
import dev.lnp.core.auth.KeyRepository;
import dev.lnp.core.db.WorkspaceTransactions;
import dev.lnp.core.http.CallerCarrier;
import dev.lnp.core.http.PipelineServices;
import dev.lnp.core.limits.ToolCallLog;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.plugins.PluginRegistry.RegisteredTool;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The core's {@link ToolGateway}: one permission rule ({@link ToolPermissions}) for the catalog and for calls,
 * the tool's monthly quota, the call in the request's transaction (or one of its own), and an audit record of
 * every call, whatever its outcome.
 */
public final class PlatformToolGateway implements ToolGateway {

    private final PluginRegistry registry;
    private final ToolInvoker invoker;
    private final WorkspaceTransactions transactions;
    private final PipelineServices services;
    private final ToolCallLog log;
    private final KeyRepository keys;

    public PlatformToolGateway(PluginRegistry registry, ToolInvoker invoker, WorkspaceTransactions transactions,
            PipelineServices services, ToolCallLog log, KeyRepository keys) {
        this.keys = keys;
        this.registry = registry;
        this.invoker = invoker;
        this.transactions = transactions;
        this.services = services;
        this.log = log;
    }

    @Override
    public McpCaller caller(RequestContext request) {
        PipelineServices.Caller caller = caller(carrier(request));
        KeyRecord key = caller.key();
        Instant expires = earliest(key.connectionExpiresAt(), key.keyValidUntil());
        return new McpCaller(caller.principal(), Optional.ofNullable(expires),
                new McpCaller.RateLimit(caller.rate().limit(), caller.rate().remaining(), caller.rate().resetSeconds()),
                new McpCaller.ToolPolicy(Optional.ofNullable(key.toolAllow()).map(List::copyOf),
                        List.copyOf(key.toolDeny()), key.readOnlyTools(), List.copyOf(key.disabledModules())),
                Optional.ofNullable(key.toolCallBudget()).map(budget -> new McpCaller.ToolCallBudget(budget,
                        Math.max(0, budget - key.toolCallsUsed()))));
    }

    @Override
    public List<ToolEntry> catalog(RequestContext request) {
        PipelineServices.Caller caller = caller(carrier(request));
        return registry.tools().stream()
                .map(t -> new ToolEntry(t.pluginId(), t.descriptor(),
                        ToolPermissions.denial(t, caller.principal(), caller.key())))
                .toList();
    }

    @Override
    public ToolResult call(RequestContext request, String name, JsonNode arguments) {
        CallerCarrier carrier = carrier(request);
        if (carrier.openTx().isPresent()) {
            // Its quota is a short statement of its own, taken before the tool's transaction, as on REST routes;
            // inside a request transaction it would run as the request role (and hold the quota row's lock).
            throw new IllegalStateException("tool calls open their own transaction: call them from a raw route or "
                    + "a route declared withoutTransaction()");
        }
        PipelineServices.Caller caller = caller(carrier);
        Principal principal = caller.principal();
        long started = System.nanoTime();
        try {
            RegisteredTool tool = invoker.find(name);
            Optional<ToolDenial> denial = ToolPermissions.denial(tool, principal, caller.key());
            if (denial.isPresent()) {
                throw new ApiProblem(403, "tool_denied", "Forbidden", denial.get().message(),
                        List.of(new FieldError("/name", denial.get().reason(), denial.get().message())), Map.of());
            }
            JsonNode args = ToolInvoker.arguments(arguments);
            invoker.validate(tool, args);
            takeFromBudget(caller.key());
            ToolResult result = withQuota(caller, tool.descriptor().quota(),
                    () -> inOwnTransaction(tool, principal, args));
            record(carrier, request, name, ToolCallRecord.OK, null, started, result.entities());
            return result;
        } catch (ApiProblem problem) {
            record(carrier, request, name, outcome(problem), problem.code(), started, List.of());
            throw problem;
        } catch (RuntimeException e) {
            record(carrier, request, name, ToolCallRecord.ERROR, "internal_error", started, List.of());
            throw e;
        }
    }

    @Override
    public ToolResult callWithKey(String apiKey, String name, JsonNode arguments) {
        PipelineServices.Caller caller = services.authenticate(List.of("Bearer " + apiKey), "mcp");
        return call(new InternalCall("internal-" + java.util.UUID.randomUUID(), caller), name, arguments);
    }

    /** A call a plugin makes for a workspace outside any request (e.g. seeding it), as that key's holder. */
    private record InternalCall(String requestId, PipelineServices.Caller caller) implements RequestContext,
            CallerCarrier {
        @Override
        public Optional<Principal> principal() {
            return Optional.of(caller.principal());
        }

        @Override
        public Optional<WorkspaceTx> openTx() {
            return Optional.empty();
        }

        @Override
        public String endpoint() {
            return "internal";
        }
    }

    /**
     * A restricted key's lifetime budget: one conditional UPDATE per call (atomic across nodes). A call counts
     * once it has passed the name, permission and argument checks, whether the tool then succeeds or not.
     */
    private void takeFromBudget(KeyRecord key) {
        if (key.toolCallBudget() == null) {
            return;
        }
        if (keys.takeToolCall(key.connectionId()).isEmpty()) {
            services.metrics().refused("tool_call_budget", "mcp");
            throw new ApiProblem(403, "tool_call_budget_exhausted", "Forbidden", "This key has used all "
                    + key.toolCallBudget() + " tool calls it was issued with; it cannot call tools any more.");
        }
    }

    @Override
    public ToolCallPage audit(ApiRequest request, ToolCallFilter filter) {
        CallerCarrier carrier = carrier(request);
        WorkspaceTx tx = carrier.openTx().orElseThrow(() -> new IllegalStateException(
                "the tool-call audit is listed inside an ordinary route's transaction"));
        return ToolCallLog.list(tx.handle(), caller(carrier).principal().workspaceId(), filter);
    }

    private ToolResult inOwnTransaction(RegisteredTool tool, Principal principal, JsonNode args) {
        try {
            return transactions.inWorkspace(principal.workspaceId(), tx -> invoker.run(tool, principal, args, tx));
        } catch (WorkspaceTransactions.WorkFailed e) {
            throw new IllegalStateException("tool " + tool.descriptor().name() + " failed", e.getCause());
        }
    }

    /** Takes a unit of the tool's monthly quota first, and gives it back when the call does not succeed. */
    private ToolResult withQuota(PipelineServices.Caller caller, String quota,
            java.util.function.Supplier<ToolResult> work) {
        if (quota == null) {
            return work.get();
        }
        services.takeQuota(caller, quota);
        boolean succeeded = false;
        try {
            ToolResult result = work.get();
            succeeded = true;
            return result;
        } finally {
            if (!succeeded) {
                services.giveBackQuota(caller, quota);
            }
        }
    }

    private static String outcome(ApiProblem problem) {
        return switch (problem.code()) {
            case "unknown_tool" -> ToolCallRecord.UNKNOWN_TOOL;
            case "tool_denied" -> ToolCallRecord.DENIED;
            default -> problem.status() >= 500 ? ToolCallRecord.ERROR
                    : problem.status() == 422 && "validation_failed".equals(problem.code())
                            ? ToolCallRecord.INVALID_ARGUMENTS : ToolCallRecord.REJECTED;
        };
    }

    private void record(CallerCarrier carrier, RequestContext request, String tool, String outcome, String code,
            long started, List<EntityRef> entities) {
        Principal p = caller(carrier).principal();
        services.metrics().toolCall(tool != null && registry.tool(tool).isPresent() ? tool : "unknown", outcome);
        log.record(new ToolCallLog.Entry(Instant.now(), request.requestId(), p.workspaceId(), p.connectionId(),
                carrier.endpoint(), tool == null ? "" : tool.substring(0, Math.min(tool.length(), 200)), outcome, code, (System.nanoTime() - started) / 1e6,
                entities));
    }

    private static CallerCarrier carrier(RequestContext request) {
        if (request instanceof CallerCarrier carrier) {
            return carrier;
        }
        throw new IllegalArgumentException("not a request the platform handed to a plugin: " + request);
    }

    private static PipelineServices.Caller caller(CallerCarrier carrier) {
        if (carrier.caller() == null) {
            throw new IllegalStateException("the tool gateway needs an authenticated route, not a public one");
        }
        return carrier.caller();
    }

    private static Instant earliest(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isBefore(b) ? a : b;
    }

    @Override
    public ToolResult callAsPlugin(java.util.UUID workspaceId, java.util.UUID actorId, String name,
            JsonNode arguments) {
        var tool = invoker.find(name);
        var principal = new dev.lnp.api.Principal(workspaceId, actorId, actorId, java.util.Optional.empty(),
                "service", java.util.Set.of(tool.descriptor().scope()), java.util.Optional.empty());
        return invoker.call(principal, name, arguments);
    }
}
