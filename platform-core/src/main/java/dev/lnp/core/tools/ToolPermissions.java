package dev.lnp.core.tools;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.internal.mcp.ToolDenial;
import dev.lnp.api.workspace.Principal;
import dev.lnp.core.auth.KeyRecord;
import dev.lnp.core.plugins.PluginRegistry.RegisteredTool;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a caller may call a tool: the tool's plugin is enabled for the workspace, the connection does not deny
 * it (deny list, allow list, read-only switch), and the key holds the tool's scope. The same rule filters the
 * catalog and guards every call, on both MCP surfaces.
 */
final class ToolPermissions {

    private ToolPermissions() {
    }

    /** The denial of a tool whose module the workspace has switched off, for callers and plugins alike. */
    static ToolDenial moduleOff(String pluginId) {
        return new ToolDenial(ToolDenial.MODULE_DISABLED, null, "The module " + pluginId
                + " is switched off for this workspace.");
    }

    /** The 403 {@code tool_denied} a denial answers, the rule in the field error. */
    static ApiProblem refusal(ToolDenial denial) {
        return new ApiProblem(403, "tool_denied", "Forbidden", denial.message(),
                List.of(new FieldError("/name", denial.reason(), denial.message())), Map.of());
    }

    static Optional<ToolDenial> denial(RegisteredTool registered, Principal principal, KeyRecord key) {
        var tool = registered.descriptor();
        if (key.disabledModules().contains(registered.pluginId())) {
            return Optional.of(moduleOff(registered.pluginId()));
        }
        if (key.toolDeny().contains(tool.name())) {
            return Optional.of(new ToolDenial(ToolDenial.DENIED_FOR_CONNECTION, "tool_deny",
                    "This connection's deny list includes " + tool.name() + "."));
        }
        if (key.toolAllow() != null && !key.toolAllow().contains(tool.name())) {
            return Optional.of(new ToolDenial(ToolDenial.DENIED_FOR_CONNECTION, "tool_allow",
                    "This connection may only call the tools on its allow list, which does not include "
                            + tool.name() + "."));
        }
        if (key.readOnlyTools() && !tool.annotations().readOnly()) {
            return Optional.of(new ToolDenial(ToolDenial.DENIED_FOR_CONNECTION, "read_only_tools",
                    "This connection may only call read-only tools, and " + tool.name() + " changes data."));
        }
        if (!principal.has(tool.scope())) {
            return Optional.of(new ToolDenial(ToolDenial.MISSING_SCOPE, null,
                    "This key lacks the scope " + tool.scope() + " that " + tool.name() + " needs."));
        }
        return Optional.empty();
    }
}
