package dev.lnp.api.internal.console;

import io.helidon.webserver.http.HttpRules;
import java.util.List;

/**
 * Pages and JSON operations a subsystem (e.g. webhooks) adds to the console, with the console's own sessions,
 * authorization, layout and error pages. Its routes come before the plugin sections and the console's not-found
 * answers.
 */
public interface ConsoleExtension {

    /** A link in the navigation's "API &amp; MCP" section, shown to people whose role has {@code permission}. */
    record NavLink(ConsoleAuthorization.Permission permission, String label, String href) {
    }

    List<NavLink> navigation();

    /** Adds page routes (paths relative to {@code /console}); wrap each handler with {@link ConsolePages#page}. */
    void pages(HttpRules rules, ConsolePages console);

    /** Adds JSON operations (paths relative to {@code /console}); wrap each handler with {@link ConsoleApi#json}. */
    void api(HttpRules rules, ConsoleApi api);
}
