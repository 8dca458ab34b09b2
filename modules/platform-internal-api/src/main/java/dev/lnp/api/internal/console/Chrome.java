package dev.lnp.api.internal.console;

import java.util.List;

/**
 * What every page's layout needs: title, assets, who is signed in, the CSRF token, the navigation, and which shell
 * it is in: the administration console, or the workspace application (branded with the workspace, with its search).
 *
 * @param brand what the top bar names and every title ends with: the workspace in the application
 * @param home where the brand links to ({@code /app} or {@code /console})
 * @param search the application's search box with this text in it ({@code ""} when empty); {@code null}: no box
 * @param htmxUrl the bundled htmx, which the application's pages load; {@code null} on the console's
 */
public record Chrome(String title, String cssUrl, String jsUrl, String email, String workspaceName, String role,
        String csrf, List<NavSection> nav, String brand, String home, String search, String htmxUrl) {

    /** The administration console's shell. */
    public static final String CONSOLE = "Workspace console";

    public boolean signedIn() {
        return email != null;
    }

    /** Whether this is a page of the workspace application rather than of the administration. */
    public boolean application() {
        return home.equals("/app");
    }
}
