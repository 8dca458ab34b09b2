package dev.lnp.plugins.trials;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.console.ActionResult;
import dev.lnp.api.console.ConsoleColumn;
import dev.lnp.api.console.ConsoleRole;
import dev.lnp.api.console.ConsoleSection;
import dev.lnp.api.console.RowAction;
import dev.lnp.api.console.RowPage;
import dev.lnp.api.console.SectionContext;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.plugins.trials.TrialRepository.TrialRequest;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The console section "Agent trials" of a trial workspace: its owner sees the trial (agent, state, calls left, key
 * expiry) and can revoke it. The trial rows belong to no workspace (they exist before it), so the section reads and
 * changes them in transactions of their own, on a thread of their own: the console's workspace transaction on the
 * request thread is left alone (and a nested transaction there would join it).
 */
final class TrialConsole {

    private static final ExecutorService OWN_TRANSACTIONS = Executors.newVirtualThreadPerTaskExecutor();

    private final TrialService service;

    TrialConsole(TrialService service) {
        this.service = service;
    }

    ConsoleSection section() {
        return ConsoleSection.builder("agent-trials", "Agent trials")
                .description("AI agents you approved a trial for in this workspace. Revoking stops the agent's key at "
                        + "once.")
                .itemName("trial")
                .minRole(ConsoleRole.OWNER)
                .columns(ConsoleColumn.linked("Agent", "agent"), ConsoleColumn.of("State", "state"),
                        ConsoleColumn.of("Tool calls left", "tool_calls_left"),
                        ConsoleColumn.of("Key expires", "key_expires_at"))
                .detailFields(ConsoleColumn.of("Agent", "agent"), ConsoleColumn.of("Purpose", "purpose"),
                        ConsoleColumn.of("State", "state"), ConsoleColumn.of("Reason", "reason"),
                        ConsoleColumn.of("Binding code", "binding_code"),
                        ConsoleColumn.of("Tool calls left", "tool_calls_left"),
                        ConsoleColumn.of("Key expires", "key_expires_at"),
                        ConsoleColumn.of("Requested", "created_at"), ConsoleColumn.of("Decided", "decided_at"))
                .emptyText("No agent trials in this workspace.")
                .list(this::list)
                .detail(this::find)
                .actions(RowAction.builder("revoke", "Revoke trial")
                        .confirm("The agent's key stops working at once, on every node. This cannot be undone.")
                        .doneMessage("Trial revoked: the key no longer works.")
                        .dangerous()
                        .when(row -> "approved".equals(row.path("state").asText()))
                        .handler(this::revoke))
                .build();
    }

    private RowPage list(SectionContext context) {
        // Rows (with the calls left, from the core) are built on the other thread too.
        List<ObjectNode> rows = apart(() -> service.trialsOf(context.workspaceId()).stream().map(this::row).toList());
        int from = Math.min(rows.size(), (context.page().page() - 1) * context.page().limit());
        int to = Math.min(rows.size(), from + context.page().limit());
        return new RowPage(rows.subList(from, to), rows.size());
    }

    private Optional<ObjectNode> find(SectionContext context, String id) {
        return trial(context, id).map(r -> apart(() -> row(r)));
    }

    private ActionResult revoke(SectionContext context, String id) {
        TrialRequest r = trial(context, id).orElseThrow(() -> ApiProblem.notFound("trial"));
        apart(() -> service.revokeFromConsole(r));
        return ActionResult.showRow(id);
    }

    private Optional<TrialRequest> trial(SectionContext context, String id) {
        UUID uuid;
        try {
            uuid = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return apart(() -> service.trialsOf(context.workspaceId())).stream().filter(t -> t.id().equals(uuid))
                .findFirst();
    }

    private ObjectNode row(TrialRequest r) {
        ObjectNode row = Json.object().put("id", r.id().toString())
                .put("agent", r.agentName() + " (" + r.agentVendor() + ") " + r.agentVersion())
                .put("purpose", r.purpose()).put("state", r.state()).put("reason", r.reason())
                .put("binding_code", r.bindingCode()).put("created_at", String.valueOf(r.createdAt()))
                .put("decided_at", r.decidedAt() == null ? null : r.decidedAt().toString())
                .put("key_expires_at", r.keyExpiresAt() == null ? "not collected yet" : r.keyExpiresAt().toString());
        Integer left = r.connectionId() == null ? null : service.callsLeft(r.connectionId());
        row.put("tool_calls_left", left == null ? "—" : String.valueOf(left));
        return row;
    }

    private static <T> T apart(java.util.function.Supplier<T> work) {
        try {
            return CompletableFuture.supplyAsync(work, OWN_TRANSACTIONS).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }
}
