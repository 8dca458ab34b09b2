package dev.lnp.api.internal.console;

import java.util.UUID;

/** Ids from console URLs and forms: for pages anything that is not a UUID is simply not found. */
public final class Ids {

    private Ids() {
    }

    /** The UUID {@code value} holds, or null when it holds none. */
    public static UUID parse(String value) {
        if (value == null || value.length() != 36) {
            return null;
        }
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
