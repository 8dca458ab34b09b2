package dev.lnp.web.console;

import dev.lnp.api.internal.console.ActivityLog;
import dev.lnp.api.internal.console.Chrome;
import dev.lnp.api.internal.console.ConsolePages;
import dev.lnp.api.internal.console.PageExchange;
import io.helidon.webserver.http.Handler;

/** The console as a subsystem's pages see it ({@link ConsolePages}): the same handlers, layout and notices. */
final class ExtensionPages implements ConsolePages {

    private final Console console;

    ExtensionPages(Console console) {
        this.console = console;
    }

    @Override
    public Handler page(PageHandler handler) {
        return console.page(handler::handle);
    }

    @Override
    public Chrome chrome(PageExchange exchange, String title, String currentHref) {
        return console.chrome((ConsoleExchange) exchange, title, currentHref);
    }

    @Override
    public void renderNotice(PageExchange exchange, int status, String heading, String text, String href,
            String label) {
        exchange.render(status, "notice.jte", console.notice((ConsoleExchange) exchange, heading, text, href, label));
    }

    @Override
    public ActivityLog activity() {
        return console.activity();
    }
}
