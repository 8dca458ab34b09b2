package dev.lnp.api.pages;

import java.util.Objects;

/**
 * One record a {@link PageSearch} found: its title as a link to its page, and a line that tells it apart (an
 * e-mail, a company, a status).
 *
 * @param subtitle shown under the title; {@code null} for none
 * @param href the record's page in the application, {@code /app/…}
 */
public record SearchHit(String title, String subtitle, String href) {

    public SearchHit {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(href, "href");
        if (!href.startsWith("/app/")) {
            throw new IllegalArgumentException("a search hit links to a page of the application (/app/…): " + href);
        }
    }
}
