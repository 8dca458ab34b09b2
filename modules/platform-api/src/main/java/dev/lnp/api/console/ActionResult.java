package dev.lnp.api.console;

import java.util.Objects;

/**
 * What a create, edit or row action answers. The console then shows the row (or the list) with the message the
 * form or action declared, or, for a {@link #secret}, a page that shows the secret once with a copy button.
 */
public sealed interface ActionResult {

    /** Done; the console shows the row again (the list, for a row that no longer exists). */
    static ActionResult done() {
        return new Done();
    }

    /** A row was created (or is the one to show next): the console shows its detail view. */
    static ActionResult showRow(String id) {
        return new ShowRow(id);
    }

    /**
     * Done, with a message of the plugin's own for this once (e.g. "12 articles re-indexed"): the console shows the
     * row with {@code message} (the list, for a create or a row that no longer exists). The page is the answer to the
     * POST itself, not a redirect.
     */
    static ActionResult notice(String message) {
        return new Notice(message);
    }

    /** The row is gone: the console shows the list. */
    static ActionResult removed() {
        return new Removed();
    }

    /**
     * A secret to show this once (e.g. a widget key), never again: the page is not cached and the console keeps no
     * copy. {@code rowId} is the row it belongs to (the page links back to it), {@code label} names the secret
     * and {@code note} says how to use it (may be null).
     */
    static ActionResult secret(String rowId, String label, String value, String note) {
        return new Secret(rowId, label, value, note);
    }

    record Done() implements ActionResult {
    }

    record ShowRow(String id) implements ActionResult {
        public ShowRow {
            Objects.requireNonNull(id, "id");
        }
    }

    record Removed() implements ActionResult {
    }

    record Notice(String message) implements ActionResult {
        public Notice {
            Objects.requireNonNull(message, "message");
        }
    }

    record Secret(String rowId, String label, String value, String note) implements ActionResult {
        public Secret {
            Objects.requireNonNull(rowId, "rowId");
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(value, "value");
        }
    }
}
