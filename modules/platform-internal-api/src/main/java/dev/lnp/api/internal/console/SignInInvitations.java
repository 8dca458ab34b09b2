package dev.lnp.api.internal.console;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The console's one-time sign-in links as an operator command hands them out ({@code workspace create},
 * {@code user sign-in-link}): the same links, limits and lifetimes as an invitation from the console.
 */
public interface SignInInvitations {

    /** A user who has this e-mail address, in one workspace. */
    record Membership(UUID userId, UUID workspaceId, String workspaceName, String role, String email) {
    }

    /** Every workspace user with this e-mail address (compared without case). */
    List<Membership> memberships(String email);

    /**
     * A new one-time link that signs {@code email} in, into {@code workspaceId} (null: to the workspace choice),
     * usable in any browser for {@link #lifetime()}.
     */
    String link(UUID workspaceId, String email);

    Duration lifetime();
}
