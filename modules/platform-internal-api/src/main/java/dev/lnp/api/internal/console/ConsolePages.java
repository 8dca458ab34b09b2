package dev.lnp.api.internal.console;

import io.helidon.webserver.http.Handler;

/** What the console offers a page another module adds to it (a subsystem's {@link ConsoleExtension}). */
public interface ConsolePages {

    /** A console page handler: its refusals and failures become readable pages, never a stack trace. */
    interface PageHandler {
        void handle(PageExchange exchange);
    }

    /** Something a page names does not exist: a 404 page with a link back to {@code backHref}. */
    final class NotFound extends RuntimeException {
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

    /** The console's handler for {@code handler}, with its session, refusal and error pages. */
    Handler page(PageHandler handler);

    /** The layout's model for a page titled {@code title}, showing the navigation the session's role allows. */
    Chrome chrome(PageExchange exchange, String title, String currentHref);

    /** Answers {@code status} with the console's notice page: a heading, a text and one link. */
    void renderNotice(PageExchange exchange, int status, String heading, String text, String href, String label);

    ActivityLog activity();
}
