package dev.lnp.api.pages;

import java.util.Objects;

/**
 * What an action answers: where the person goes next (a redirect after the post, so a reload does not post again),
 * the notice shown there and, for an action that makes a secret (a new key), the secret shown there this once.
 */
public record PageOutcome(String location, String notice, Secret secret) {

    /**
     * A secret for the next page only: shown with a copy button above what that page shows, and never again (the
     * web layer keeps no copy; reloading the page shows it no more).
     */
    public record Secret(String label, String value) {
        public Secret {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(value, "value");
        }
    }

    public PageOutcome {
        Objects.requireNonNull(location, "location");
        if (!location.startsWith("/app/") && !location.startsWith("/console/")) {
            throw new IllegalArgumentException("an action goes on to a page of the platform: " + location);
        }
    }

    public static PageOutcome goTo(String location, String notice) {
        return new PageOutcome(location, notice, null);
    }

    public static PageOutcome goTo(String location) {
        return new PageOutcome(location, null, null);
    }

    /** The same outcome, showing {@code value} (labelled {@code label}) once on the next page. */
    public PageOutcome withSecret(String label, String value) {
        return new PageOutcome(location, notice, new Secret(label, value));
    }
}
