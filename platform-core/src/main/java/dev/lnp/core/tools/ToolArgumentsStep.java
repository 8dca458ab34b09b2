package dev.lnp.core.tools;

import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.core.pipeline.PipelineStep;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.plugins.PluginRegistry.RegisteredTool;
import dev.lnp.json.validation.BodyValidator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The arguments against the tool's input schema (compiled once per tool): 422 naming each argument by its pointer.
 * Absent or null arguments are an empty object (a tool without parameters).
 */
final class ToolArgumentsStep implements PipelineStep<ToolCallRun> {

    private final Map<String, BodyValidator> validators = new HashMap<>();

    ToolArgumentsStep(PluginRegistry registry) {
        for (RegisteredTool tool : registry.tools()) {
            validators.put(tool.descriptor().name(),
                    BodyValidator.compile("tool:" + tool.descriptor().name(), tool.descriptor().inputSchema()));
        }
    }

    @Override
    public String name() {
        return "arguments";
    }

    @Override
    public void apply(ToolCallRun call, Rest rest) {
        var arguments = call.arguments;
        var args = arguments == null || arguments.isNull() || arguments.isMissingNode() ? Json.object() : arguments;
        List<FieldError> errors = validators.get(call.tool.descriptor().name()).validate(args);
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors.size() == 1 ? errors.get(0).message()
                    : errors.size() + " arguments are invalid", errors);
        }
        call.args = args;
        rest.proceed();
    }
}
