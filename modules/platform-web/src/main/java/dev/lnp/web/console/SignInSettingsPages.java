package dev.lnp.web.console;

import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.console.ConsoleAuthorization.Permission;

/**
 * Workspace → Sign-in: the workspace's rules for the deployment's OpenID Connect provider and for e-mailed links.
 * They decide who becomes a member and with which role, so they are the members' managers' (owners and admins).
 * Without a provider configured the page does not exist: links are then the only way in.
 */
final class SignInSettingsPages {

    static final String PATH = "/console/sign-in-settings";

    private final Console console;
    private final OidcSettings provider;
    private final WorkspaceSignInStore store;

    SignInSettingsPages(Console console, OidcSettings provider, WorkspaceSignInStore store) {
        this.console = console;
        this.provider = provider;
        this.store = store;
    }

    void show(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_MEMBERS);
        var rules = store.rules(session.workspaceId());
        render(x, 200, form(rules), null, x.takeFlash().orElse(null));
    }

    void save(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_MEMBERS);
        x.checkPost(session.csrfToken());
        var form = new Views.SignInRulesForm(nullToEmpty(x.form("allowed_domains")), x.form("create_users") != null,
                nullToEmpty(x.form("default_role")), nullToEmpty(x.form("group_roles")), x.form("links_allowed") != null);
        WorkspaceSignInRules rules;
        try {
            rules = new WorkspaceSignInRules(session.workspaceId(),
                    WorkspaceSignInRules.parseDomains(form.allowedDomains()), form.createUsers(), form.defaultRole(),
                    WorkspaceSignInRules.parseGroupRoles(form.groupRoles()), form.linksAllowed()).checked();
        } catch (WorkspaceSignInRules.Invalid invalid) {
            render(x, 400, form, invalid.getMessage(), null);
            return;
        }
        store.save(session, console.activity(), rules);
        x.flash("Sign-in settings saved.");
        x.redirect(PATH);
    }

    private static Views.SignInRulesForm form(WorkspaceSignInRules rules) {
        return new Views.SignInRulesForm(String.join(", ", rules.allowedDomains()), rules.createUsers(),
                rules.defaultRole(), rules.groupRolesText(), rules.linksAllowed());
    }

    private void render(ConsoleExchange x, int status, Views.SignInRulesForm form, String error, String notice) {
        x.render(status, "signinsettings.jte", new Views.SignInSettingsPage(console.chrome(x, "Sign-in", PATH),
                provider.displayName(), provider.groupsClaim(), form, error, notice));
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }
}
