package dev.lnp.api.pages;

import java.util.Objects;

/**
 * A link or a button. With {@code post} it is a button that posts an empty form to an action (the web layer adds
 * the CSRF token) after asking to confirm when {@code confirm} is set; otherwise a plain link.
 *
 * @param href a path of the platform; in a list's row links, {@code {field}} stands for the row's value of
 *             {@code field}, e.g. {@code /app/notes/items/{id}}
 */
public record Link(String label, String href, boolean post, String confirm) {

    public Link {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(href, "href");
        if (!href.startsWith("/")) throw new IllegalArgumentException("a link stays on the platform: " + href);
    }

    public static Link to(String label, String href) {
        return new Link(label, href, false, null);
    }

    /** A button posting to an action, confirmed first when {@code confirm} is not {@code null}. */
    public static Link post(String label, String href, String confirm) {
        return new Link(label, href, true, confirm);
    }
}
