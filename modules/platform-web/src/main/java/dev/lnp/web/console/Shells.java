package dev.lnp.web.console;

import dev.lnp.api.internal.console.Chrome;
import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.NavItem;
import dev.lnp.api.internal.console.NavSection;
import java.util.ArrayList;
import java.util.List;

/**
 * The frame around every page: the console's navigation for administration, and the application's shell under
 * {@code /app} (the workspace as its brand, one heading per module switched on, the search box).
 */
final class Shells {

    private final ConsoleSettings settings;
    private final ConsoleAssets assets;
    private final ContributedPages contributedPages;
    /** Whether the deployment signs people in at an OpenID Connect provider (the workspace's sign-in rules page). */
    private final boolean signInSettings;

    Shells(ConsoleSettings settings, ConsoleAssets assets, ContributedPages contributedPages, boolean signInSettings) {
        this.settings = settings;
        this.assets = assets;
        this.contributedPages = contributedPages;
        this.signInSettings = signInSettings;
    }

    /**
     * The layout's model for a page titled {@code title}, showing the navigation the session's role allows: the
     * application's shell on its addresses (its refusals and not-found pages too), the console's elsewhere.
     */
    public Chrome chrome(ConsoleExchange exchange, String title, String currentHref) {
        ConsoleSession session = exchange.session().orElse(null);
        if (session != null && session.hasWorkspace() && isApplication(exchange.request().path().absolute().path())) {
            return pageChrome(session, title, currentHref == null ? "/app" : currentHref, "");
        }
        return chrome(session, title, currentHref);
    }

    static boolean isApplication(String path) {
        return path.equals("/app") || path.startsWith("/app/");
    }

    /** The layout's model for the person of {@code session} (null: nobody signed in). */
    Chrome chrome(ConsoleSession session, String title, String currentHref) {
        List<NavSection> nav = new ArrayList<>();
        if (session != null && session.hasWorkspace()) {
            section(nav, session, currentHref, "API & MCP", new Link(ConsoleAuthorization.Permission.VIEW_CONNECTIONS,
                    "External connections", "/console/connections"));
            section(nav, session, currentHref, "Workspace",
                    new Link(ConsoleAuthorization.Permission.VIEW_MEMBERS, "Members", "/console/members"),
                    new Link(signInSettings ? ConsoleAuthorization.Permission.MANAGE_MEMBERS : null,
                            "Sign-in", SignInSettingsPages.PATH),
                    new Link(ConsoleAuthorization.Permission.MANAGE_MODULES, "Modules", "/console/modules"),
                    new Link(ConsoleAuthorization.Permission.VIEW_USAGE, "Usage", "/console/usage"),
                    new Link(ConsoleAuthorization.Permission.VIEW_ACTIVITY, "Activity", "/console/activity"));
            joinSections(nav, contributedPages.navigation(session, "/console", currentHref));
            section(nav, session, currentHref, "Account",
                    new Link(ConsoleAuthorization.Permission.OWN_SESSIONS, "Your sessions", "/console/sessions"));
            if (settings.isOperator(session.email())) {
                nav.add(new NavSection("Deployment", List.of(new NavItem("Mailbox", "/console/mailbox",
                        "/console/mailbox".equals(currentHref)))));
            }
            nav.add(new NavSection("Application", List.of(new NavItem("Back to " + session.workspaceName(), "/app",
                    false))));
        }
        return new Chrome(title, assets.cssUrl(), assets.jsUrl(),
                session == null ? null : session.email(),
                session == null ? null : session.workspaceName(),
                session == null ? null : session.role(),
                session == null ? null : session.csrfToken(), nav, Chrome.CONSOLE, "/console", null, null);
    }

    /**
     * The layout's model for a page of the page API: the application's shell under /app (branded with the
     * workspace, one navigation heading per module switched on, the search box with {@code search} in it, and the
     * administration for those who may use it), the console's else.
     */
    Chrome pageChrome(ConsoleSession session, String title, String currentHref, String search) {
        if (currentHref.startsWith("/console")) {
            return chrome(session, title, currentHref);
        }
        List<NavSection> nav = new ArrayList<>(contributedPages.navigation(session, "/app", currentHref));
        if (ConsoleAuthorization.allows(session, ConsoleAuthorization.Permission.MANAGE_MODULES)) {
            nav.add(new NavSection("Administration", List.of(new NavItem("Members, modules and keys", "/console",
                    false))));
        }
        return new Chrome(title, assets.cssUrl(), assets.jsUrl(), session.email(), session.workspaceName(),
                session.role(), session.csrfToken(), nav, session.workspaceName(), "/app", search, assets.htmxUrl());
    }

    private record Link(ConsoleAuthorization.Permission permission, String label, String href) {
    }

    /** Adds {@code more}: a group whose heading the console already shows joins that section. */
    private static void joinSections(List<NavSection> nav, List<NavSection> more) {
        for (NavSection section : more) {
            int at = -1;
            for (int i = 0; i < nav.size(); i++) {
                if (nav.get(i).title().equals(section.title())) {
                    at = i;
                }
            }
            if (at < 0) {
                nav.add(section);
            } else {
                List<NavItem> items = new ArrayList<>(nav.get(at).items());
                items.addAll(section.items());
                nav.set(at, new NavSection(section.title(), items));
            }
        }
    }

    private static void section(List<NavSection> nav, ConsoleSession session, String current,
            String title, Link... links) {
        List<NavItem> items = new ArrayList<>();
        for (Link link : links) {
            // A link without a permission is to a page this deployment does not have.
            if (link.permission() != null && ConsoleAuthorization.allows(session, link.permission())) {
                items.add(new NavItem(link.label(), link.href(), link.href().equals(current)));
            }
        }
        if (!items.isEmpty()) {
            nav.add(new NavSection(title, items));
        }
    }
}
