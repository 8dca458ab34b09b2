package dev.lnp.core.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.Principal;
import dev.lnp.api.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.mcp.ToolCall;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.core.db.WorkspaceTransactions;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.plugins.PluginRegistry.RegisteredTool;
import dev.lnp.core.validation.BodyValidator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Calls a registered tool for a principal: the tool must exist (404), the principal must hold its scope
 * (403), the arguments must match its input schema (422 naming the field); the handler then runs in one
 * workspace transaction, like a REST handler. The tool gateway adds the connection's and the workspace's
 * permissions, quotas and the audit on top, using the steps one by one.
 */
public final class ToolInvoker {

    private final PluginRegistry registry;
    private final WorkspaceTransactions transactions;
    private final Map<String, BodyValidator> validators = new HashMap<>();

    public ToolInvoker(PluginRegistry registry, WorkspaceTransactions transactions) {
        this.registry = registry;
        this.transactions = transactions;
        for (RegisteredTool tool : registry.tools()) {
            validators.put(tool.descriptor().name(),
                    BodyValidator.compile("tool:" + tool.descriptor().name(), tool.descriptor().inputSchema()));
        }
    }

    public ToolResult call(Principal principal, String name, JsonNode arguments) {
        RegisteredTool tool = find(name);
        if (!principal.has(tool.descriptor().scope())) {
            throw new ApiProblem(403, "tool_denied", "Forbidden", "This key lacks the scope "
                    + tool.descriptor().scope() + " that the tool " + name + " needs.");
        }
        JsonNode args = arguments(arguments);
        validate(tool, args);
        try {
            return transactions.inWorkspace(principal.workspaceId(), tx -> run(tool, principal, args, tx));
        } catch (WorkspaceTransactions.WorkFailed e) {
            throw new IllegalStateException("tool " + name + " failed", e.getCause());
        }
    }

    /** The registered tool, or 404 {@code unknown_tool}. */
    public RegisteredTool find(String name) {
        return registry.tool(name).orElseThrow(() -> new ApiProblem(404, "unknown_tool", "Not Found",
                "No tool named " + name + "."));
    }

    /** Absent or null arguments are an empty object (a tool without parameters). */
    public static JsonNode arguments(JsonNode arguments) {
        return arguments == null || arguments.isNull() || arguments.isMissingNode() ? Json.object() : arguments;
    }

    /** 422 naming each argument that breaks the tool's input schema, by its pointer in the arguments. */
    public void validate(RegisteredTool tool, JsonNode args) {
        List<FieldError> errors = validators.get(tool.descriptor().name()).validate(args);
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors.size() == 1 ? errors.get(0).message()
                    : errors.size() + " arguments are invalid", errors);
        }
    }

    /** Runs the tool's handler in {@code tx}; a checked exception of the handler becomes an unchecked one. */
    public ToolResult run(RegisteredTool tool, Principal principal, JsonNode args, WorkspaceTx tx) {
        try {
            ToolResult result = tool.descriptor().handler().call(new Call(principal, args, tx));
            if (result == null) {
                throw new IllegalStateException("tool " + tool.descriptor().name() + " returned null");
            }
            return result;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("tool " + tool.descriptor().name() + " failed", e);
        }
    }

    private record Call(Principal principal, JsonNode arguments, WorkspaceTx tx) implements ToolCall {
    }
}
