package dev.lnp.core.tools;

import dev.lnp.api.internal.mcp.ToolDenial;
import dev.lnp.core.pipeline.PipelineStep;
import java.util.Optional;

/** 403 {@code tool_denied} when {@link ToolPermissions} denies the caller the tool (the rule in the error). */
final class ToolPermissionStep implements PipelineStep<ToolCallRun> {

    @Override
    public String name() {
        return "permission";
    }

    @Override
    public void apply(ToolCallRun call, Rest rest) {
        Optional<ToolDenial> denial = ToolPermissions.denial(call.tool, call.principal, call.caller.key());
        if (denial.isPresent()) {
            throw ToolPermissions.refusal(denial.get());
        }
        rest.proceed();
    }
}
