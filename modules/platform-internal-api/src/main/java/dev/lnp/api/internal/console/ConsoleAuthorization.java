package dev.lnp.api.internal.console;

import java.util.Set;

/**
 * The one rule for who may do what in the console and the management routes: pages, navigation and JSON
 * routes all ask here, so a cookie can reach nothing its user's role may not do.
 */
public final class ConsoleAuthorization {

    public enum Permission {
        VIEW_CONNECTIONS(Set.of("owner", "admin")),
        MANAGE_CONNECTIONS(Set.of("owner", "admin")),
        VIEW_ACTIVITY(Set.of("owner", "admin")),
        VIEW_MEMBERS(Set.of("owner", "admin", "member")),
        MANAGE_MEMBERS(Set.of("owner", "admin")),
        TRANSFER_OWNERSHIP(Set.of("owner")),
        MANAGE_MODULES(Set.of("owner", "admin")),
        VIEW_USAGE(Set.of("owner", "admin")),
        OWN_SESSIONS(Set.of("owner", "admin", "member"));

        private final Set<String> roles;

        Permission(Set<String> roles) {
            this.roles = roles;
        }
    }

    /** Thrown when the signed-in user's role does not allow the action; answered 403. */
    public static final class Denied extends RuntimeException {
        public Denied(Permission permission) {
            super("Your role does not allow this (" + permission.name().toLowerCase(java.util.Locale.ROOT) + ")");
        }
    }

    private ConsoleAuthorization() {
    }

    public static boolean allows(ConsoleSession session, Permission permission) {
        return session != null && session.hasWorkspace() && permission.roles.contains(session.role());
    }

    public static void require(ConsoleSession session, Permission permission) {
        if (!allows(session, permission)) {
            throw new Denied(permission);
        }
    }
}
