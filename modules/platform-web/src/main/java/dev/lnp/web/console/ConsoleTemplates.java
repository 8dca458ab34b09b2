package dev.lnp.web.console;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;

/**
 * The console's JTE templates, compiled to Java classes at build time (jte-maven-plugin), so no template
 * compiler runs in production and the classes ride in this module on the module path.
 */
public final class ConsoleTemplates {

    private final TemplateEngine engine;
    private final TemplateEngine textEngine;

    public ConsoleTemplates() {
        // The precompiled engine keeps the context class loader it is created under for every later lookup;
        // pin it to this module's loader (a thread may carry a PF4J plugin loader).
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(ConsoleTemplates.class.getClassLoader());
        try {
            this.engine = TemplateEngine.createPrecompiled(null, ContentType.Html, null, "dev.lnp.web.console.view");
            this.textEngine = TemplateEngine.createPrecompiled(null, ContentType.Plain, null, "dev.lnp.web.console.text");
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Renders {@code name} (e.g. {@code "signin.jte"}) with its single model parameter. */
    public String render(String name, Object model) {
        var output = new StringOutput(8192);
        engine.render(name, model, output);
        return output.toString();
    }

    /** Renders a plain-text template (the text part of a mail) from {@code src/main/jte-text}. */
    public String renderText(String name, Object model) {
        var output = new StringOutput(2048);
        textEngine.render(name, model, output);
        return output.toString();
    }
}
