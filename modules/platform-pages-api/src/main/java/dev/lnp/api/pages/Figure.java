package dev.lnp.api.pages;

import java.util.Objects;

/**
 * One number a dashboard states in words beside its charts, e.g. "Median first reply: 2 h 10 min".
 *
 * @param value the number as text, already formatted with its unit (a duration, an amount), or a dash
 * @param note  how it is counted, in a sentence; may be null
 * @param href  the list behind it, or {@code null}
 */
public record Figure(String label, String value, String note, String href) {

    public Figure {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(value, "value");
        if (href != null && !href.startsWith("/")) throw new IllegalArgumentException("a link stays on the platform: " + href);
    }

    public static Figure of(String label, String value, String note) {
        return new Figure(label, value, note, null);
    }
}
