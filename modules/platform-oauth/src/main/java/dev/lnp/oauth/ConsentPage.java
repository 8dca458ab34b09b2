package dev.lnp.oauth;

import dev.lnp.api.http.RawResponse;
import dev.lnp.api.internal.people.Html;
import dev.lnp.api.internal.people.PageVisitor;
import dev.lnp.api.internal.people.SignedInPerson;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The pages of the authorization endpoint, in the console's look (strict CSP: no script; every control labelled): the
 * consent form (which client, where it returns, which workspace, which permissions and tools, Allow or Deny) and,
 * for a browser not signed in, the sign-in form that comes back to the same request.
 */
final class ConsentPage {

    static final String SCOPE_FIELD = "grant_scope";
    static final String TOOL_FIELD = "grant_tool";
    static final String TOOLS_SHOWN_FIELD = "tools_shown";

    private ConsentPage() {
    }

    static RawResponse consent(PageVisitor visitor, SignedInPerson person, AuthorizationRequest.Valid request,
            List<PersonWorkspaces.Membership> memberships, Set<String> tools) {
        String client = request.client().name();
        StringBuilder body = new StringBuilder("<h1>Connect ").append(esc(client)).append("?</h1>");
        body.append("<p class=\"lead\">The application <strong>").append(esc(client)).append("</strong> asks to use ")
                .append("this platform's MCP endpoint <strong>as you</strong> (").append(esc(person.email()))
                .append("). After your decision you return to <strong>")
                .append(esc(RedirectUris.host(request.redirectUri()))).append("</strong>.</p>");
        body.append("<form method=\"post\" action=\"").append(OAuthSettings.AUTHORIZE).append("\" class=\"card\">")
                .append(visitor.csrfField()).append(request.hiddenFields());
        body.append("<p><label for=\"workspace\">Workspace it works in</label> <select id=\"workspace\" ")
                .append("name=\"workspace\">");
        UUID current = person.workspaceId().orElse(null);
        for (PersonWorkspaces.Membership m : memberships) {
            body.append("<option value=\"").append(m.workspaceId()).append('"')
                    .append(m.workspaceId().equals(current) ? " selected" : "").append('>')
                    .append(esc(m.workspaceName() + " (you are " + m.role() + ")")).append("</option>");
        }
        body.append("</select></p>");
        body.append("<fieldset><legend>Permissions it asks for</legend><p class=\"muted\">Uncheck what it should not "
                + "have. It never gets more than your role in the workspace allows, now or later.</p>");
        for (String scope : request.scopes()) {
            boolean required = scope.equals(AuthorizeEndpoint.REQUIRED_SCOPE);
            checkbox(body, SCOPE_FIELD, "scope-", scope, required ? scope + " (required to use MCP)" : scope,
                    required);
        }
        body.append("</fieldset>");
        body.append("<details><summary>Tools (").append(tools.size()).append("): uncheck any it must not call")
                .append("</summary><fieldset><legend>Tools it may call</legend>")
                .append("<input type=\"hidden\" name=\"").append(TOOLS_SHOWN_FIELD).append("\" value=\"1\">");
        for (String tool : tools) {
            checkbox(body, TOOL_FIELD, "tool-", tool, tool, false);
        }
        body.append("</fieldset></details>");
        body.append("<p>You can disconnect it at any time under <a href=\"").append(GrantPages.MINE)
                .append("\">Connected AI clients</a>.</p>");
        body.append("<p><button type=\"submit\" name=\"decision\" value=\"allow\" class=\"button\">Allow</button> ")
                .append("<button type=\"submit\" name=\"decision\" value=\"deny\" class=\"button danger\">Deny")
                .append("</button></p></form>");
        return allowingRedirectTo(visitor.page(200, "Connect " + client, body.toString()), request.redirectUri());
    }

    private static void checkbox(StringBuilder body, String field, String idPrefix, String value, String label,
            boolean locked) {
        String id = idPrefix + value.replaceAll("[^A-Za-z0-9_-]", "-");
        body.append("<label class=\"check\"><input type=\"checkbox\" id=\"").append(esc(id)).append("\" name=\"")
                .append(field).append("\" value=\"").append(esc(value)).append("\" checked")
                .append(locked ? " disabled" : "").append("> ").append(esc(label)).append("</label>");
    }

    /**
     * The page's policy with the client's origin added to {@code form-action}: the decision is a form whose answer
     * redirects to the client, and browsers hold a form's redirects to the policy of the page it was on.
     */
    private static RawResponse allowingRedirectTo(RawResponse page, String redirectUri) {
        String policy = page.headers().get("Content-Security-Policy");
        if (policy == null || !policy.contains("form-action 'self'")) {
            return page;
        }
        java.net.URI uri = java.net.URI.create(redirectUri);
        String origin = uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
        return page.withHeader("Content-Security-Policy",
                policy.replace("form-action 'self'", "form-action 'self' " + origin));
    }

    static RawResponse signIn(PageVisitor visitor, AuthorizationRequest.Valid request, String returnTo) {
        String client = request.client().name();
        String body = "<h1>Sign in to connect " + esc(client) + "</h1>"
                + "<p class=\"lead\">The application <strong>" + esc(client) + "</strong> asks to use this "
                + "platform's MCP endpoint for you. Sign in first: we e-mail you a sign-in link that brings you "
                + "back here to decide.</p>"
                + "<form method=\"post\" action=\"" + OAuthSettings.SIGN_IN + "\" class=\"card\">"
                + visitor.csrfField()
                + "<input type=\"hidden\" name=\"return\" value=\"" + esc(returnTo) + "\">"
                + "<p><label for=\"email\">Your e-mail address</label> "
                + "<input type=\"email\" id=\"email\" name=\"email\" required autocomplete=\"email\"></p>"
                + "<p><button type=\"submit\" class=\"button\">E-mail me a sign-in link</button></p></form>";
        return visitor.page(200, "Sign in to connect " + client, body);
    }

    private static String esc(String text) {
        return Html.escape(text);
    }
}
