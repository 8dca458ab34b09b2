package dev.lnp.api.pages;

import java.util.Objects;

/**
 * What an action answers: where the person goes next (a redirect after the post, so a reload does not post again)
 * and the notice shown there.
 */
public record PageOutcome(String location, String notice) {

    public PageOutcome {
        Objects.requireNonNull(location, "location");
        if (!location.startsWith("/app/") && !location.startsWith("/console/")) {
            throw new IllegalArgumentException("an action goes on to a page of the platform: " + location);
        }
    }

    public static PageOutcome goTo(String location, String notice) {
        return new PageOutcome(location, notice);
    }

    public static PageOutcome goTo(String location) {
        return new PageOutcome(location, null);
    }
}
