package dev.lnp.core.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.workspace.Principal;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.core.http.PipelineServices;
import dev.lnp.core.pipeline.QuotaStep;
import dev.lnp.core.pipeline.TransactionStep;
import dev.lnp.core.plugins.PluginRegistry.RegisteredTool;
import java.util.UUID;

/** One tool call on its way through the gateway's steps: who calls what, and what each step found. */
final class ToolCallRun implements QuotaStep.Charged, TransactionStep.Transactional {

    final String requestId;
    /** Where the call came from, as the tool-call audit records it: a route template, {@code internal}... */
    final String endpoint;
    /** The key's holder with the connection's settings; null for a plugin's own call (no key, no limits). */
    final PipelineServices.Caller caller;
    final Principal principal;
    final String name;
    final JsonNode arguments;
    final long startedNanos = System.nanoTime();

    RegisteredTool tool;
    /** The arguments as the tool gets them (absent ones as an empty object), once checked. */
    JsonNode args;
    WorkspaceTx tx;
    ToolResult result;

    ToolCallRun(String requestId, String endpoint, PipelineServices.Caller caller, Principal principal, String name,
            JsonNode arguments) {
        this.requestId = requestId;
        this.endpoint = endpoint;
        this.caller = caller;
        this.principal = principal;
        this.name = name;
        this.arguments = arguments;
    }

    @Override
    public java.util.Map<String, Long> workspaceQuotas() {
        return caller.key().workspaceQuotas();
    }

    @Override
    public String quota() {
        return tool.descriptor().quota();
    }

    @Override
    public boolean usedQuota() {
        return true;
    }

    @Override
    public UUID workspaceId() {
        return principal.workspaceId();
    }

    @Override
    public dev.lnp.core.db.AdmissionCheck admissionCheck() {
        return caller == null ? null : caller.check();
    }

    @Override
    public boolean read() {
        return tool.descriptor().annotations().readOnly();
    }

    @Override
    public Object readKey() {
        return "tool " + tool.descriptor().name();
    }

    @Override
    public void openedTx(WorkspaceTx tx) {
        this.tx = tx;
    }

    /**
     * The route that made the call admits it again from the database and runs its steps again: the tool's
     * permission and budget depend on the admission.
     */
    @Override
    public void admissionStale() {
        throw new dev.lnp.core.db.AdmissionCheck.Stale();
    }
}
