package dev.lnp.api.pages;

import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.PageRequest;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * What a page's handler knows of the request: the signed-in person, the workspace and its transaction (row-level
 * security applies; still filter on {@code workspace_id}), the path's parameters and the query. The transaction
 * commits when the handler returns and rolls back when it throws.
 */
public interface PageCall {

    UUID workspaceId();

    /** The signed-in person's user id. */
    UUID userId();

    String email();

    /** The person's role in this workspace: {@code owner}, {@code admin} or {@code member}. */
    String role();

    /** Whether the person's role grants this scope, e.g. to offer an edit link only to those who may edit. */
    boolean may(String scope);

    WorkspaceTx tx();

    /** A {@code {name}} parameter of the page's path. */
    String pathParam(String name);

    /** A {@code {name}} parameter that is an id; one that is not a UUID answers the not-found page. */
    UUID pathId(String name);

    /** A query parameter's first value, empty when absent or blank. */
    Optional<String> query(String name);

    /** Every value of a query parameter (a filter that takes several), without blanks. */
    List<String> queryAll(String name);

    /**
     * The workspace's members, read-only: names for user ids, and members as the choices of a form. Read once per
     * request and kept for it.
     */
    Members members();

    /** The page asked for: {@code page} from 1 and {@code limit} (25 unless asked, at most 100). */
    PageRequest page();
}
