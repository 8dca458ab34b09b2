package dev.lnp.api.internal.console;

/** One navigation link; {@code current} marks the page shown. */
public record NavItem(String label, String href, boolean current) {
}
