package dev.lnp.core.console;

import java.util.function.Supplier;

/**
 * One shipped template rendered with a representative model, as {@code platform doctor} checks it. The render runs
 * in the module that owns the template, so the module rules of the release image (a template package the template
 * engine may not open) fail here as they would on a real page or mail.
 *
 * @param name the template's file, e.g. {@code mail/link.jte} (with its module for templates outside the core)
 * @param render renders it and answers the output
 */
public record TemplateRender(String name, Supplier<String> render) {
}
