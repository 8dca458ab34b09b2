package dev.lnp.plugins.crm;

import dev.lnp.api.workspace.Principal;
import java.util.UUID;

/**
 * Who made a change, as the activity records it: a member in the application, or an API connection (REST or an MCP
 * tool). A connection that acts for a member is recorded as that member, with the connection beside.
 *
 * @param type {@code member} or {@code connection}
 * @param id the member's user id, or the connection's service identity
 * @param connectionId the API connection the change came through, {@code null} for the application
 */
record Actor(String type, UUID id, UUID connectionId) {

    static Actor member(UUID userId) {
        return new Actor("member", userId, null);
    }

    static Actor of(Principal principal) {
        return principal.delegatedUserId()
                .map(user -> new Actor("member", user, principal.connectionId()))
                .orElseGet(() -> new Actor("connection", principal.identityId(), principal.connectionId()));
    }
}
