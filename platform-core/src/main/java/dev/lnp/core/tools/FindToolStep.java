package dev.lnp.core.tools;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.pipeline.PipelineStep;
import dev.lnp.core.plugins.PluginRegistry;

/** The registered tool of that name, or 404 {@code unknown_tool}. */
final class FindToolStep implements PipelineStep<ToolCallRun> {

    private final PluginRegistry registry;

    FindToolStep(PluginRegistry registry) {
        this.registry = registry;
    }

    @Override
    public String name() {
        return "tool";
    }

    @Override
    public void apply(ToolCallRun call, Rest rest) {
        call.tool = registry.tool(call.name).orElseThrow(() -> new ApiProblem(404, "unknown_tool", "Not Found",
                "No tool named " + call.name + "."));
        rest.proceed();
    }
}
