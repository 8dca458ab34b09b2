package dev.lnp.core.tools;

import dev.lnp.core.pipeline.PipelineStep;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * 403 {@code tool_denied} when the workspace has switched the tool's module off. A caller's key carries its
 * workspace's modules; a plugin's own call (the chatbot's hand-off opening a ticket) has no key, so the workspace's
 * list is read here, and a module switched off stays off for plugins as for callers.
 */
final class PluginCallModuleStep implements PipelineStep<ToolCallRun> {

    private final Function<UUID, List<String>> disabledModules;

    PluginCallModuleStep(Function<UUID, List<String>> disabledModules) {
        this.disabledModules = disabledModules;
    }

    @Override
    public String name() {
        return "module";
    }

    @Override
    public void apply(ToolCallRun call, Rest rest) {
        String module = call.tool.pluginId();
        if (disabledModules.apply(call.principal.workspaceId()).contains(module)) {
            throw ToolPermissions.refusal(ToolPermissions.moduleOff(module));
        }
        rest.proceed();
    }
}
