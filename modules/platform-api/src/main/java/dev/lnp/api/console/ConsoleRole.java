package dev.lnp.api.console;

import java.util.Locale;

/** The workspace roles of the console, weakest first; a section or action names the weakest role it allows. */
public enum ConsoleRole {
    MEMBER, ADMIN, OWNER;

    /** Whether a person with {@code role} (as stored: {@code member}, {@code admin}, {@code owner}) reaches this level. */
    public boolean allows(String role) {
        if (role == null) {
            return false;
        }
        try {
            return ConsoleRole.valueOf(role.toUpperCase(Locale.ROOT)).ordinal() >= ordinal();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The stored name, e.g. {@code admin}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
