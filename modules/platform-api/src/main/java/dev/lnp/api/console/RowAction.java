package dev.lnp.api.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A button on a row's detail view that changes the row (e.g. "Revoke", "Delete", "Rotate key"). The console sends
 * it as a POST with the session's CSRF token, checks the role, loads the row first (a row the detail callback does
 * not find, e.g. one of another workspace, is a 404 and the handler is not called), records the action in the
 * console activity log as {@code <plugin>.<section>.<action id>}, and shows the result.
 *
 * <pre>{@code
 * RowAction.builder("revoke", "Revoke")
 *         .confirm("The agent loses access at once.")   // a confirmation page first
 *         .doneMessage("The trial was revoked.")
 *         .minRole(ConsoleRole.OWNER)
 *         .when(row -> row.path("status").asText().equals("active"))
 *         .handler((ctx, id) -> { service.revoke(ctx.tx(), id); return ActionResult.done(); });
 * }</pre>
 */
public final class RowAction {

    /** Runs the action on row {@code id} in the context's workspace transaction. */
    @FunctionalInterface
    public interface Handler {
        ActionResult run(SectionContext context, String id) throws Exception;
    }

    private final String id;
    private final String label;
    private final String confirmText;
    private final String doneMessage;
    private final ConsoleRole minRole;
    private final boolean dangerous;
    private final Predicate<ObjectNode> when;
    private final Handler handler;

    private RowAction(Builder b) {
        this.id = b.id;
        this.label = b.label;
        this.confirmText = b.confirmText;
        this.doneMessage = b.doneMessage;
        this.minRole = b.minRole;
        this.dangerous = b.dangerous;
        this.when = b.when;
        this.handler = b.handler;
    }

    /**
     * @param id lowercase letters, digits and {@code -} (part of the address and of the activity entry), e.g.
     *           {@code rotate-key}
     * @param label the button's text
     */
    public static Builder builder(String id, String label) {
        return new Builder(id, label);
    }

    public String id() {
        return id;
    }

    public String label() {
        return label;
    }

    /** The text of the confirmation page, or null when the action runs at once. */
    public String confirmText() {
        return confirmText;
    }

    public String doneMessage() {
        return doneMessage;
    }

    /** The weakest role that may run it; null means the section's. */
    public ConsoleRole minRole() {
        return minRole;
    }

    /** Shown as a destructive (red) button. */
    public boolean dangerous() {
        return dangerous;
    }

    /** Whether the action is offered (and allowed) for this row. */
    public boolean appliesTo(ObjectNode row) {
        return when == null || when.test(row);
    }

    public Handler handler() {
        return handler;
    }

    public static final class Builder {
        private final String id;
        private final String label;
        private String confirmText;
        private String doneMessage = "Done.";
        private ConsoleRole minRole;
        private boolean dangerous;
        private Predicate<ObjectNode> when;
        private Handler handler;

        private Builder(String id, String label) {
            if (id == null || !id.matches("[a-z][a-z0-9-]{0,39}")) {
                throw new IllegalArgumentException("action id " + id + " must be lowercase letters, digits and '-'"
                        + " (at most 40), starting with a letter");
            }
            this.id = id;
            this.label = Objects.requireNonNull(label, "label");
        }

        /** Asks first, on a page of its own showing {@code text} and the button. */
        public Builder confirm(String text) {
            this.confirmText = Objects.requireNonNull(text, "text");
            return this;
        }

        /** The message shown on the row after the action (default "Done."). */
        public Builder doneMessage(String message) {
            this.doneMessage = Objects.requireNonNull(message, "message");
            return this;
        }

        public Builder minRole(ConsoleRole role) {
            this.minRole = Objects.requireNonNull(role, "role");
            return this;
        }

        /** Shows the button as destructive (e.g. delete, revoke). */
        public Builder dangerous() {
            this.dangerous = true;
            return this;
        }

        /** Offers the action only for rows that pass {@code test} (e.g. only active trials can be revoked). */
        public Builder when(Predicate<ObjectNode> test) {
            this.when = Objects.requireNonNull(test, "test");
            return this;
        }

        /** Last: the action itself; builds it. */
        public RowAction handler(Handler handler) {
            this.handler = Objects.requireNonNull(handler, "handler");
            return new RowAction(this);
        }
    }
}
