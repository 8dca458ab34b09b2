package dev.lnp.oauth;

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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The pages of the connected MCP clients, declared with the page API: every person sees and disconnects their own
 * under {@code /app} ({@link #MINE}, linked from the consent page and from the console's list); owners and admins see and disconnect everyone's in the workspace, in the
 * console beside the external connections ({@link #ALL}). Disconnecting revokes the grant and its connection: the
 * client's next request is refused, on every node. The grants belong to no tenant, so the pages read and change
 * them in statements of their own, on a thread of their own: the page's workspace transaction is left alone.
 */
final class GrantPages {

    static final String MINE = "/app/connected-clients";
    static final String ALL = "/console/mcp-clients";
    static final String SCOPE = "mcp.clients.write";
    private static final ExecutorService OWN_STATEMENTS = Executors.newVirtualThreadPerTaskExecutor();

    private final Supplier<GrantService> service;

    GrantPages(Supplier<GrantService> service) {
        this.service = service;
    }

    List<PageRoute> routes() {
        return List.of(
                // Not in the navigation: the core's pages come before the modules' there, and the workspace
                // application starts at its first page, which is a module's. The consent page links here.
                PageRoute.view(MINE).scope(SCOPE).renderer(c -> list(c, true)),
                PageRoute.view(MINE + "/{id}").scope(SCOPE).renderer(c -> detail(c, true)),
                PageRoute.action(MINE + "/{id}/revoke").scope(SCOPE).button().action((c, v) -> revoke(c, true)),
                PageRoute.view(ALL).scope(SCOPE).role("admin").nav("API & MCP", "Connected MCP clients")
                        .renderer(c -> list(c, false)),
                PageRoute.view(ALL + "/{id}").scope(SCOPE).role("admin").renderer(c -> detail(c, false)),
                PageRoute.action(ALL + "/{id}/revoke").scope(SCOPE).role("admin").button()
                        .action((c, v) -> revoke(c, false)));
    }

    private ListView list(PageCall call, boolean mine) {
        List<Grants.Grant> grants = apart(() -> service.get().grants().completedIn(call.workspaceId(),
                mine ? call.userId() : null));
        int from = (int) Math.min(grants.size(), call.page().offset());
        int to = Math.min(grants.size(), from + call.page().limit());
        String home = mine ? MINE : ALL;
        List<Column> columns = new ArrayList<>(List.of(Column.of("Client", "client").linkedTo(home + "/{id}"),
                Column.of("Returns to", "redirect_host")));
        if (!mine) {
            columns.add(Column.of("Person", "person"));
        }
        columns.addAll(List.of(Column.of("Permissions", "scopes"), Column.of("Connected", "created_at"),
                Column.of("State", "state")));
        ListView view = ListView.of(mine ? "Connected AI clients" : "Connected MCP clients", columns,
                        grants.subList(from, to).stream().map(GrantPages::row).toList(), to < grants.size());
        if (!mine) {
            view = view.actions(Link.to("Your own connected clients", MINE));
        }
        return view
                .emptyText(mine ? "No AI client is connected for you. An assistant that connects to this platform's "
                        + "MCP endpoint by its URL asks for your consent, and is listed here."
                        : "No MCP client is connected by OAuth in this workspace. Keys created as external "
                                + "connections are listed under External connections.");
    }

    private DetailView detail(PageCall call, boolean mine) {
        Grants.Grant g = grant(call, mine);
        String home = mine ? MINE : ALL;
        List<Field> fields = List.of(new Field("Client", g.clientName()), new Field("Returns to", g.redirectHost()),
                new Field("Person", g.email()), new Field("Permissions", String.join(", ", g.scopes())),
                new Field("Tools", g.tools() == null ? "all the permissions allow" : String.join(", ", g.tools())),
                new Field("Resource", g.resource()), new Field("Connected", String.valueOf(g.createdAt())),
                new Field("State", g.state() + (g.revokedReason() == null ? "" : " (" + g.revokedReason() + ")")),
                new Field("Connection id", String.valueOf(g.connectionId())));
        List<Link> links = new ArrayList<>(List.of(Link.to(mine ? "All your connected clients"
                : "All connected MCP clients", home)));
        if (g.revokedAt() == null) {
            links.add(Link.post("Disconnect", home + "/" + g.id() + "/revoke", "The client's tokens stop working "
                    + "at once; it must ask for consent again to reconnect."));
        }
        return DetailView.of(g.clientName(), fields).actions(links.toArray(Link[]::new));
    }

    private PageOutcome revoke(PageCall call, boolean mine) {
        Grants.Grant g = grant(call, mine);
        apart(() -> {
            service.get().revoke(g.id(), mine ? "revoked_by_person" : "revoked_by_admin");
            return null;
        });
        String home = mine ? MINE : ALL;
        return PageOutcome.goTo(home + "/" + g.id(), "Disconnected: " + g.clientName() + " no longer has access.")
                .recorded("mcp_client.disconnected", g.clientName(), g.email());
    }

    /** The grant of the path in this workspace (the person's own on their page); any other is not found. */
    private Grants.Grant grant(PageCall call, boolean mine) {
        UUID id = call.pathId("id");
        return apart(() -> service.get().grants().find(id))
                .filter(g -> g.workspaceId().equals(call.workspaceId()) && g.activatedAt() != null)
                .filter(g -> !mine || g.userId().equals(call.userId()))
                .orElseThrow(() -> ApiProblem.notFound("The connected client"));
    }

    private static ObjectNode row(Grants.Grant g) {
        return Json.object().put("id", g.id().toString()).put("client", g.clientName())
                .put("redirect_host", g.redirectHost()).put("person", g.email())
                .put("scopes", String.join(", ", g.scopes())).put("created_at", String.valueOf(g.createdAt()))
                .put("state", g.state());
    }

    private static <T> T apart(Supplier<T> work) {
        try {
            return CompletableFuture.supplyAsync(work, OWN_STATEMENTS).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }
}
