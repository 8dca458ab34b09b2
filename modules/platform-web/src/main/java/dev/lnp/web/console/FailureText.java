package dev.lnp.web.console;

/**
 * A failure described for the log without what its messages may quote: a database driver's exception names the
 * statement's arguments, and a mail's arguments hold its one-time link. The chain of exception types and the
 * root cause's own message say what went wrong.
 */
final class FailureText {

    private FailureText() {
    }

    static String of(Throwable failure) {
        StringBuilder text = new StringBuilder();
        Throwable root = failure;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append(text.isEmpty() ? "" : " <- ").append(t.getClass().getSimpleName());
            root = t;
        }
        if (root != failure && root.getMessage() != null) {
            text.append(": ").append(root.getMessage().lines().findFirst().orElse(""));
        }
        return text.toString();
    }
}
