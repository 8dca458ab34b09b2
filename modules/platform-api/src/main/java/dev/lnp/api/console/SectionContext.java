package dev.lnp.api.console;

import dev.lnp.api.WorkspaceTx;
import dev.lnp.api.http.PageRequest;
import java.util.Optional;
import java.util.UUID;

/**
 * What a section callback knows of the request: the signed-in person, the workspace, the page asked for and the
 * workspace transaction (row-level security applies; still filter on {@code workspace_id}). The transaction
 * commits when the callback returns and rolls back when it throws.
 */
public interface SectionContext {

    UUID workspaceId();

    /** The signed-in person's user id in this workspace. */
    UUID userId();

    String email();

    /** The person's role in this workspace. */
    ConsoleRole role();

    /** The page of the list asked for ({@code page} from 1, {@code limit} 25 by default); page 1 outside lists. */
    PageRequest page();

    /** For a section declared with {@link ConsoleSection.Builder#childOf}: the id of the parent row. */
    Optional<String> parentId();

    WorkspaceTx tx();
}
