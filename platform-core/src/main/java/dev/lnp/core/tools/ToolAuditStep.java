package dev.lnp.core.tools;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.internal.mcp.ToolCallRecord;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.core.db.AdmissionCheck;
import dev.lnp.core.limits.ToolCallLog;
import dev.lnp.core.metrics.PlatformMetrics;
import dev.lnp.core.pipeline.PipelineStep;
import dev.lnp.core.plugins.PluginRegistry;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/** Outermost: every call, whatever its outcome, gets a tool-call audit row and a metric sample. */
final class ToolAuditStep implements PipelineStep<ToolCallRun> {

    private static final int MAX_TOOL_NAME = 200;

    private final ToolCallLog log;
    private final PlatformMetrics metrics;
    private final PluginRegistry registry;
    /** Checks a cached admission no transaction has checked yet ({@code PipelineServices#confirm}). */
    private final Consumer<AdmissionCheck> confirm;

    ToolAuditStep(ToolCallLog log, PlatformMetrics metrics, PluginRegistry registry,
            Consumer<AdmissionCheck> confirm) {
        this.confirm = confirm;
        this.log = log;
        this.metrics = metrics;
        this.registry = registry;
    }

    @Override
    public String name() {
        return "audit";
    }

    @Override
    public void apply(ToolCallRun call, Rest rest) {
        try {
            rest.proceed();
        } catch (ApiProblem problem) {
            if (call.caller != null && problem.status() < 500) {
                // A caller admitted from the node's cache, refused before its transaction checked the admission:
                // a revoked key's call is not recorded (the route admits it again and answers its 401).
                confirm.accept(call.caller.check());
            }
            record(call, outcome(problem), problem.code(), List.of());
            throw problem;
        } catch (AdmissionCheck.Stale stale) {
            throw stale;
        } catch (RuntimeException e) {
            record(call, ToolCallRecord.ERROR, "internal_error", List.of());
            throw e;
        }
        record(call, ToolCallRecord.OK, null, call.result.entities());
    }

    private static String outcome(ApiProblem problem) {
        return switch (problem.code()) {
            case "unknown_tool" -> ToolCallRecord.UNKNOWN_TOOL;
            case "tool_denied" -> ToolCallRecord.DENIED;
            default -> problem.status() >= 500 ? ToolCallRecord.ERROR
                    : problem.status() == 422 && "validation_failed".equals(problem.code())
                            ? ToolCallRecord.INVALID_ARGUMENTS : ToolCallRecord.REJECTED;
        };
    }

    private void record(ToolCallRun call, String outcome, String code, List<EntityRef> entities) {
        String tool = call.name;
        metrics.toolCall(tool != null && registry.tool(tool).isPresent() ? tool : "unknown", outcome);
        log.record(new ToolCallLog.Entry(Instant.now(), call.requestId, call.principal.workspaceId(),
                call.principal.connectionId(), call.endpoint,
                tool == null ? "" : tool.substring(0, Math.min(tool.length(), MAX_TOOL_NAME)), outcome, code,
                (System.nanoTime() - call.startedNanos) / 1e6, entities));
    }
}
