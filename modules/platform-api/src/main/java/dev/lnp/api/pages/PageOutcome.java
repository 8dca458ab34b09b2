package dev.lnp.api.pages;

import java.util.Objects;

/**
 * What an action answers: where the person goes next (a redirect after the post, so a reload does not post again),
 * the notice shown there and, when the action made one, a value shown there only once.
 *
 * @param shownOnce a new key or signing secret the next page shows once with a copy button, or {@code null}
 */
public record PageOutcome(String location, String notice, ShownOnce shownOnce) {

    /**
     * A value the person must copy now because it is never shown again (the platform keeps only a hash, or only the
     * receiver needs it). It travels to the next page sealed in a short-lived cookie bound to the browser's session
     * and that page's path, and is gone once shown: reloading the page does not show it again.
     *
     * @param label what it is, e.g. "Signing secret"
     * @param note a sentence shown with it (how to use it, until when an old one still works), or {@code null}
     */
    public record ShownOnce(String label, String value, String note) {
        public ShownOnce {
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

    public PageOutcome(String location, String notice) {
        this(location, notice, null);
    }

    public static PageOutcome goTo(String location, String notice) {
        return new PageOutcome(location, notice);
    }

    public static PageOutcome goTo(String location) {
        return new PageOutcome(location, null);
    }

    /** The same outcome, with {@code value} shown once on the next page (a new key, a signing secret). */
    public PageOutcome showingOnce(String label, String value, String note) {
        return new PageOutcome(location, notice, new ShownOnce(label, value, note));
    }
}
