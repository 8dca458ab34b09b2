package dev.lnp.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.workspace.WorkspaceTx;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A request that passed the pipeline: the caller is known, the body matches the route's schema and the query
 * parameters are checked. Handlers run inside {@link #tx()}, one transaction scoped to the caller's workspace.
 */
public interface ApiRequest extends RequestContext {

    /** The caller's workspace, for authenticated routes. */
    UUID workspaceId();

    /** A path parameter as text. */
    String path(String name);

    /**
     * A path parameter that must be a UUID. A malformed one is answered 400 {@code invalid_path_parameter} naming
     * it (parameters named {@code id} or {@code …_id} are checked before the handler runs); a well-formed id that
     * is not in the workspace is the handler's 404.
     */
    UUID pathId(String name);

    /** The values of a query parameter, already checked against the route's declaration. */
    List<String> queryAll(String name);

    default Optional<String> query(String name) {
        List<String> values = queryAll(name);
        return values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** The validated page and limit, for paginated routes. */
    PageRequest pageRequest();

    /** The validated body, or a {@code MissingNode} when the route takes none. */
    JsonNode body();

    WorkspaceTx tx();
}
