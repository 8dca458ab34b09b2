package dev.lnp.api.internal.console;

/** One option of a form's select, radio group or check boxes (or a hidden field: name as value, value as label). */
public record Choice(String value, String label, boolean selected) {
}
