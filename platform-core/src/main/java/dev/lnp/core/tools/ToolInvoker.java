package dev.lnp.core.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Principal;
import dev.lnp.api.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.mcp.ToolCall;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.core.db.WorkspaceTransactions;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.validation.BodyValidator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Calls a registered tool for a principal: the tool must exist (404), the principal must hold its scope
 * (403), the arguments must match its input schema (422 naming the field); the handler then runs in one
 * workspace transaction, like a REST handler. The MCP surfaces add their own permission filter on top.
 */
public final class ToolInvoker {

    private final PluginRegistry registry;
    private final WorkspaceTransactions transactions;
    private final Map<String, BodyValidator> validators = new HashMap<>();

    public ToolInvoker(PluginRegistry registry, WorkspaceTransactions transactions) {
        this.registry = registry;
        this.transactions = transactions;
        for (PluginRegistry.RegisteredTool tool : registry.tools()) {
            validators.put(tool.descriptor().name(),
                    BodyValidator.compile("tool:" + tool.descriptor().name(), tool.descriptor().inputSchema()));
        }
    }

    public ToolResult call(Principal principal, String name, JsonNode arguments) {
        var tool = registry.tool(name).orElseThrow(() -> new ApiProblem(404, "unknown_tool", "Not Found",
                "No tool named " + name + "."));
        if (!principal.has(tool.descriptor().scope())) {
            throw new ApiProblem(403, "tool_denied", "Forbidden", "This key lacks the scope "
                    + tool.descriptor().scope() + " that the tool " + name + " needs.");
        }
        JsonNode args = arguments == null || arguments.isNull() ? dev.lnp.api.Json.object() : arguments;
        List<FieldError> errors = validators.get(name).validate(args);
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors.size() == 1 ? errors.get(0).message()
                    : errors.size() + " arguments are invalid", errors);
        }
        try {
            return transactions.inWorkspace(principal.workspaceId(),
                    tx -> tool.descriptor().handler().call(new Call(principal, args, tx)));
        } catch (WorkspaceTransactions.WorkFailed e) {
            throw new IllegalStateException("tool " + name + " failed", e.getCause());
        }
    }

    private record Call(Principal principal, JsonNode arguments, WorkspaceTx tx) implements ToolCall {
    }
}
