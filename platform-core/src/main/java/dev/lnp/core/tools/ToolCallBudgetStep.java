package dev.lnp.core.tools;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.auth.KeyRecord;
import dev.lnp.core.auth.KeyRepository;
import dev.lnp.core.metrics.PlatformMetrics;
import dev.lnp.core.pipeline.PipelineStep;

/**
 * A restricted key's lifetime budget: one conditional UPDATE per call (atomic across nodes). A call counts once it
 * has passed the name, permission and argument checks, whether the tool then succeeds or not.
 */
final class ToolCallBudgetStep implements PipelineStep<ToolCallRun> {

    private final KeyRepository keys;
    private final PlatformMetrics metrics;

    ToolCallBudgetStep(KeyRepository keys, PlatformMetrics metrics) {
        this.keys = keys;
        this.metrics = metrics;
    }

    @Override
    public String name() {
        return "budget";
    }

    @Override
    public void apply(ToolCallRun call, Rest rest) {
        KeyRecord key = call.caller.key();
        if (key.toolCallBudget() != null && keys.takeToolCall(key.connectionId()).isEmpty()) {
            metrics.refused("tool_call_budget", "mcp");
            throw new ApiProblem(403, "tool_call_budget_exhausted", "Forbidden", "This key has used all "
                    + key.toolCallBudget() + " tool calls it was issued with; it cannot call tools any more.");
        }
        rest.proceed();
    }
}
