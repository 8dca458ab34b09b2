package dev.lnp.api.workspace;

import java.util.Locale;

/** A person's role in a workspace, weakest first; a scope or a page names the weakest role it allows. */
public enum Role {
    MEMBER, ADMIN, OWNER;

    /** Whether a person with {@code role} (as stored: {@code member}, {@code admin}, {@code owner}) reaches this level. */
    public boolean allows(String role) {
        if (role == null) {
            return false;
        }
        try {
            return Role.valueOf(role.toUpperCase(Locale.ROOT)).ordinal() >= ordinal();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The stored name, e.g. {@code admin}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
