package dev.lnp.plugins.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.plugins.trials.TrialRepository.TrialRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The administration's "Agent trials" pages of a trial workspace, for its owners: the trials (agent, state, calls
 * left, key expiry) and revoking one. The trial rows belong to no workspace (they exist before it), so the pages
 * read and change them in transactions of their own, on a thread of their own: the page's workspace transaction on
 * the request thread is left alone (and a nested transaction there would join it).
 */
final class TrialPages {

    static final String TRIALS = "/console/trials/agent-trials";
    /** Declared by the plugin for these pages; only owners open them, whatever the scopes. */
    static final String READ = "trials.read";
    static final String WRITE = "trials.write";
    private static final ExecutorService OWN_TRANSACTIONS = Executors.newVirtualThreadPerTaskExecutor();

    private final TrialService service;

    TrialPages(TrialService service) {
        this.service = service;
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(TRIALS).scope(READ).role("owner").nav("Trials", "Agent trials").renderer(this::list),
                PageRoute.view(TRIALS + "/{id}").scope(READ).role("owner").renderer(this::detail),
                PageRoute.action(TRIALS + "/{id}/revoke").scope(WRITE).role("owner").button()
                        .action(this::revoke));
    }

    private ListView list(PageCall call) {
        // Rows (with the calls left, from the core) are built on the other thread too.
        List<ObjectNode> rows = apart(() -> service.trialsOf(call.workspaceId()).stream().map(this::row).toList());
        int from = (int) Math.min(rows.size(), call.page().offset());
        int to = Math.min(rows.size(), from + call.page().limit());
        return ListView.of("Agent trials", List.of(Column.of("Agent", "agent").linkedTo(TRIALS + "/{id}"),
                                Column.of("State", "state"), Column.of("Tool calls left", "tool_calls_left"),
                                Column.of("Key expires", "key_expires_at")),
                        rows.subList(from, to), to < rows.size())
                .emptyText("No agent trials in this workspace. The AI agents you approve a trial for are listed "
                        + "here; revoking one stops its key at once.");
    }

    private DetailView detail(PageCall call) {
        TrialRequest r = trial(call);
        ObjectNode row = apart(() -> row(r));
        List<Field> fields = new ArrayList<>();
        for (String[] f : new String[][] {{"Agent", "agent"}, {"Purpose", "purpose"}, {"State", "state"},
                {"Reason", "reason"}, {"Binding code", "binding_code"}, {"Tool calls left", "tool_calls_left"},
                {"Key expires", "key_expires_at"}, {"Requested", "created_at"}, {"Decided", "decided_at"}}) {
            JsonNode value = row.path(f[1]);
            fields.add(new Field(f[0], value.isNull() || value.isMissingNode() ? null : value.asText()));
        }
        DetailView view = DetailView.of(row.path("agent").asText(), fields);
        List<Link> links = new ArrayList<>(List.of(Link.to("All agent trials", TRIALS)));
        if ("approved".equals(r.state())) {
            links.add(Link.post("Revoke trial", TRIALS + "/" + r.id() + "/revoke",
                    "The agent's key stops working at once, on every node. This cannot be undone."));
        }
        return view.actions(links.toArray(Link[]::new));
    }

    private PageOutcome revoke(PageCall call, ObjectNode values) {
        TrialRequest r = trial(call);
        apart(() -> service.revokeFromConsole(r));
        return PageOutcome.goTo(TRIALS + "/" + r.id(), "Trial revoked: the key no longer works.");
    }

    /** The trial of the path in this workspace; another workspace's (or none) is not found. */
    private TrialRequest trial(PageCall call) {
        UUID id = call.pathId("id");
        return apart(() -> service.trialsOf(call.workspaceId())).stream().filter(t -> t.id().equals(id))
                .findFirst().orElseThrow(() -> ApiProblem.notFound("The trial"));
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
