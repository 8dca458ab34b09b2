package dev.lnp.api.internal.subsystem;

import java.util.function.Supplier;

/**
 * One shipped template rendered with a representative model in the module that owns it, so that {@code platform
 * doctor} renders it under that module's rules on the release image.
 *
 * @param name the template as the doctor names it, e.g. {@code connections.jte} or {@code webhooks/webhook.jte}
 */
public record TemplateRender(String name, Supplier<String> render) {
}
