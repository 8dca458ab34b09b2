package dev.lnp.core.console;

import java.util.UUID;

/** Ids from URLs and forms: anything that is not a UUID is simply not found. */
final class Ids {

    private Ids() {
    }

    static UUID parse(String value) {
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
