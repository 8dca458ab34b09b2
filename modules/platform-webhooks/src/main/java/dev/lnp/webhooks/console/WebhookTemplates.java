package dev.lnp.webhooks.console;

import dev.lnp.api.internal.console.PageExchange;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;

/**
 * The Webhooks pages' JTE templates ({@code src/main/jte}), compiled to Java at build time like the console's own.
 * They render the page's body; the console wraps it in its layout ({@link PageExchange#renderPage}).
 */
final class WebhookTemplates {

    private final TemplateEngine engine;

    WebhookTemplates() {
        // The precompiled engine keeps the context class loader it is created under for every later lookup;
        // pin it to this module's loader (a thread may carry a PF4J plugin loader).
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(WebhookTemplates.class.getClassLoader());
        try {
            this.engine = TemplateEngine.createPrecompiled(null, ContentType.Html, null, "dev.lnp.webhooks.console.view");
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Answers {@code status} with the page {@code template} renders from {@code model}. */
    void render(PageExchange exchange, int status, String template, WebhookViews.Page model) {
        exchange.renderPage(status, model.chrome(), body(template, model));
    }

    /** The page's body as {@code template} renders it from {@code model}, without the console's layout. */
    String body(String template, WebhookViews.Page model) {
        var output = new StringOutput(8192);
        engine.render(template, model, output);
        return output.toString();
    }
}
