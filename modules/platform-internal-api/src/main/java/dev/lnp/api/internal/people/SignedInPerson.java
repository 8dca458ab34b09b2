package dev.lnp.api.internal.people;

import java.util.Optional;
import java.util.UUID;

/**
 * Whoever is signed in to the console in this browser. A person signed in through a plugin page may have no
 * account in any workspace yet; then {@link #workspaceId()} is empty.
 *
 * @param email the address the sign-in link was sent to (as typed there)
 * @param sessionId the console session
 * @param userId the user this session acts as, null when no workspace is chosen (or none exists)
 * @param workspaceId the workspace of {@code userId}, null likewise
 * @param role {@code owner}, {@code admin} or {@code member} in that workspace, null likewise
 */
public record SignedInPerson(String email, UUID sessionId, UUID userId, UUID workspaceIdOrNull, String role) {

    public Optional<UUID> workspaceId() {
        return Optional.ofNullable(workspaceIdOrNull);
    }

    /** Whether this is {@code address}, ignoring case. */
    public boolean is(String address) {
        return address != null && email.equalsIgnoreCase(address.strip());
    }
}
