package dev.lnp.core.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.workspace.Principal;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.mcp.ToolCall;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.core.pipeline.PipelineStep;

/** Innermost: the tool's handler in the call's transaction; a checked exception of it becomes a 500. */
final class InvokeToolStep implements PipelineStep<ToolCallRun> {

    @Override
    public String name() {
        return "invoke";
    }

    @Override
    public void apply(ToolCallRun call, Rest rest) {
        String name = call.tool.descriptor().name();
        ToolResult result;
        try {
            result = call.tool.descriptor().handler().call(new Call(call.principal, call.args, call.tx));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("tool " + name + " failed", e);
        }
        if (result == null) {
            throw new IllegalStateException("tool " + name + " returned null");
        }
        call.result = result;
        rest.proceed();
    }

    private record Call(Principal principal, JsonNode arguments, WorkspaceTx tx) implements ToolCall {
    }
}
