package dev.lnp.api.internal.console;

import java.util.List;

/** What every console page's layout needs: title, assets, who is signed in, the CSRF token, the navigation. */
public record Chrome(String title, String cssUrl, String jsUrl, String email, String workspaceName, String role,
        String csrf, List<NavSection> nav) {

    public boolean signedIn() {
        return email != null;
    }
}
