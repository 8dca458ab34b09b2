package dev.lnp.api.internal.console;

import java.util.List;

/** A titled group of navigation links; groups without a link the role may use are left out. */
public record NavSection(String title, List<NavItem> items) {
}
