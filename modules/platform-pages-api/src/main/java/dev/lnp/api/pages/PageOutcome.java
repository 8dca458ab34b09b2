package dev.lnp.api.pages;

import java.util.Objects;

/**
 * What an action answers: where the person goes next (a redirect after the post, so a reload does not post again),
 * the notice shown there and, when the action made one, a value shown there only once.
 *
 * @param shownOnce a new key or signing secret the next page shows once with a copy button, or {@code null}
 * @param activity what the workspace's activity log records for the action, or {@code null} for the default (the
 *                 plugin's id with {@code .page}, and the action's address)
 */
public record PageOutcome(String location, String notice, ShownOnce shownOnce, Activity activity) {

    private static final java.util.regex.Pattern ACTION = java.util.regex.Pattern.compile(
            "[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+");

    /**
     * An entry of the activity log owners and admins read: what was done, in words a person can filter by
     * ({@code notes.item_deleted}), and to what.
     *
     * @param target the thing acted on, e.g. its name and id
     * @param detail what else is worth knowing (the events now subscribed), or {@code null}
     */
    public record Activity(String action, String target, String detail) {
        public Activity {
            Objects.requireNonNull(action, "action");
            if (!ACTION.matcher(action).matches()) {
                throw new IllegalArgumentException("an activity is named module.what_happened: " + action);
            }
        }
    }

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
        this(location, notice, null, null);
    }

    public static PageOutcome goTo(String location, String notice) {
        return new PageOutcome(location, notice);
    }

    public static PageOutcome goTo(String location) {
        return new PageOutcome(location, null);
    }

    /** The same outcome, with {@code value} shown once on the next page (a new key, a signing secret). */
    public PageOutcome showingOnce(String label, String value, String note) {
        return new PageOutcome(location, notice, new ShownOnce(label, value, note), activity);
    }

    /** The same outcome, recorded in the activity log as {@code action} on {@code target}. */
    public PageOutcome recorded(String action, String target, String detail) {
        return new PageOutcome(location, notice, shownOnce, new Activity(action, target, detail));
    }
}
