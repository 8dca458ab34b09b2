package dev.lnp.core.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.workspace.Principal;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.RequestContext;
import dev.lnp.api.internal.mcp.McpCaller;
import dev.lnp.api.internal.mcp.ToolCallFilter;
import dev.lnp.api.internal.mcp.ToolCallPage;
import dev.lnp.api.internal.mcp.ToolEntry;
import dev.lnp.api.internal.mcp.ToolGateway;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.core.auth.KeyRecord;
import dev.lnp.core.auth.KeyRepository;
import dev.lnp.core.http.CallerCarrier;
import dev.lnp.core.http.PipelineServices;
import dev.lnp.core.limits.ToolCallLog;
import dev.lnp.core.pipeline.Pipeline;
import dev.lnp.core.plugins.PluginRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The core's {@link ToolGateway}, the only way to call a tool. A call runs through named steps (see the
 * constructor): the tool-call audit around everything, the tool by name, one permission rule
 * ({@link ToolPermissions}, also the catalog's), the arguments, a restricted key's budget, the tool's monthly
 * quota and a workspace transaction of its own (the same quota and transaction steps as routes), the handler.
 */
public final class PlatformToolGateway implements ToolGateway {

    /** The tool-call audit's endpoint for {@link #callAsPlugin} calls. */
    static final String PLUGIN_ENDPOINT = "plugin";

    private final PluginRegistry registry;
    private final PipelineServices services;
    /** A caller's call: the steps in order, outermost first; quota and transaction are the routes' own steps. */
    private final Pipeline<ToolCallRun> calls;
    /** A plugin's own call ({@link #callAsPlugin}): no key, so no connection rules, budget or quota. */
    private final Pipeline<ToolCallRun> pluginCalls;

    /** @param disabledModules the modules a workspace has switched off, read for plugins' own calls */
    public PlatformToolGateway(PluginRegistry registry, PipelineServices services, ToolCallLog log,
            KeyRepository keys, Function<UUID, List<String>> disabledModules) {
        this.registry = registry;
        this.services = services;
        var audit = new ToolAuditStep(log, services.metrics(), registry, services::confirm);
        var find = new FindToolStep(registry);
        var arguments = new ToolArgumentsStep(registry);
        var invoke = new InvokeToolStep();
        this.calls = new Pipeline<>(List.of(audit, find, new ToolPermissionStep(), arguments,
                new ToolCallBudgetStep(keys, services.metrics()), services.quotaStep(), services.transactionStep(),
                invoke));
        this.pluginCalls = new Pipeline<>(List.of(audit, find, new PluginCallModuleStep(disabledModules), arguments,
                services.transactionStep(), invoke));
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
        var run = new ToolCallRun(request.requestId(), carrier.endpoint(), caller, caller.principal(), name, arguments);
        calls.run(run);
        return run.result;
    }

    @Override
    public ToolResult callWithKey(String apiKey, String name, JsonNode arguments) {
        PipelineServices.Caller caller = services.authenticate(List.of("Bearer " + apiKey), "mcp");
        return call(new InternalCall("internal-" + UUID.randomUUID(), caller), name, arguments);
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

    @Override
    public ToolCallPage audit(ApiRequest request, ToolCallFilter filter) {
        CallerCarrier carrier = carrier(request);
        WorkspaceTx tx = carrier.openTx().orElseThrow(() -> new IllegalStateException(
                "the tool-call audit is listed inside an ordinary route's transaction"));
        return ToolCallLog.list(tx.handle(), caller(carrier).principal().workspaceId(), filter);
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
    public ToolResult callAsPlugin(UUID workspaceId, UUID actorId, String name, JsonNode arguments) {
        // A service principal: the actor is what the tool records as author; it holds exactly the tool's scope.
        Set<String> scope = registry.tool(name).map(t -> Set.of(t.descriptor().scope())).orElse(Set.of());
        var principal = new Principal(workspaceId, actorId, actorId, Optional.empty(), "service", scope,
                Optional.empty());
        var run = new ToolCallRun("plugin-" + UUID.randomUUID(), PLUGIN_ENDPOINT, null, principal, name, arguments);
        pluginCalls.run(run);
        return run.result;
    }
}
