package dev.lnp.web.console;

import dev.lnp.api.internal.console.ConsolePages;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.workspace.WorkspaceTx;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * What a page's handler (or a search source) knows of the request: the signed-in person, the workspace and its
 * transaction, the address's parameters and query.
 */
final class PersonCall implements PageCall {
    private final Console console;
    private final ConsoleExchange x;
    private final ConsoleSession session;
    private final WorkspaceTx tx;
    private final java.util.Map<String, String> pathParams;
    private dev.lnp.api.pages.Members members;

    PersonCall(Console console, ConsoleExchange x, ConsoleSession session, WorkspaceTx tx) {
        this(console, x, session, tx, null);
    }

    /**
     * A call whose path parameters are {@code pathParams} rather than the request's: the page shown again after an
     * inline form's action refused it is another address than the action's.
     */
    PersonCall(Console console, ConsoleExchange x, ConsoleSession session, WorkspaceTx tx,
            java.util.Map<String, String> pathParams) {
        this.console = console;
        this.x = x;
        this.session = session;
        this.tx = tx;
        this.pathParams = pathParams;
    }

    @Override
    public UUID workspaceId() {
        return session.workspaceId();
    }

    @Override
    public UUID userId() {
        return session.userId();
    }

    @Override
    public String email() {
        return session.email();
    }

    @Override
    public String role() {
        return session.role();
    }

    @Override
    public boolean may(String scope) {
        return console.plugins().scopesOfRole(session.role()).contains(scope);
    }

    @Override
    public WorkspaceTx tx() {
        return tx;
    }

    @Override
    public String pathParam(String name) {
        return pathParams != null ? pathParams.get(name) : x.pathParam(name);
    }

    @Override
    public UUID pathId(String name) {
        try {
            return UUID.fromString(pathParam(name));
        } catch (IllegalArgumentException | NullPointerException notAnId) {
            throw new ConsolePages.NotFound("There is nothing at this address.", "/app", "Back");
        }
    }

    @Override
    public Optional<String> query(String name) {
        return Optional.ofNullable(x.query(name)).map(String::strip).filter(v -> !v.isEmpty());
    }

    @Override
    public List<String> queryAll(String name) {
        return x.request().query().all(name, List::of).stream().map(String::strip).filter(v -> !v.isEmpty())
                .toList();
    }

    @Override
    public dev.lnp.api.pages.Members members() {
        if (members == null) {
            members = console.workspaceMembers().of(session.workspaceId());
        }
        return members;
    }

    @Override
    public PageRequest page() {
        return new PageRequest(number("page", 1, Integer.MAX_VALUE / 100, 1), number("limit", 1, 100, 25));
    }

    private int number(String name, int min, int max, int otherwise) {
        String asked = x.query(name);
        if (asked == null) {
            return otherwise;
        }
        try {
            int value = Integer.parseInt(asked.strip());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // answered below, as a value out of range
        }
        throw new ApiProblem(400, "invalid_query", "Bad Request", name + ": give a whole number from " + min
                + " to " + max + ", as the page's links do.");
    }
}
