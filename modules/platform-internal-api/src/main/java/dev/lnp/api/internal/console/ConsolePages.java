package dev.lnp.api.internal.console;

/** The console's page answers another module's code may throw. */
public final class ConsolePages {

    private ConsolePages() {
    }

    /** Something a page names does not exist: a 404 page with a link back to {@code backHref}. */
    public static final class NotFound extends RuntimeException {
        private final String backHref;
        private final String backLabel;

        public NotFound(String text, String backHref, String backLabel) {
            super(text, null, false, false);
            this.backHref = backHref;
            this.backLabel = backLabel;
        }

        public String backHref() {
            return backHref;
        }

        public String backLabel() {
            return backLabel;
        }
    }
}
