package dev.lnp.oauth;

import dev.lnp.api.http.RawRequest;
import dev.lnp.api.http.RawResponse;
import dev.lnp.api.internal.people.PageVisitor;
import dev.lnp.api.internal.people.PeoplePages;
import dev.lnp.api.internal.people.SignedInPerson;
import dev.lnp.api.internal.platform.PluginCatalog;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code /oauth/authorize}: checks the request ({@link AuthorizationRequest}), has the person sign in when this
 * browser is not signed in (the console's e-mailed link, which returns to the same request), shows the consent page
 * and answers the decision: Deny sends {@code access_denied} back to the client; Allow records the grant with the
 * permissions the person left checked, capped by their role in the workspace they chose, and sends a single-use
 * code back (with {@code state} and {@code iss}, RFC 9207). The form is the console's: same-origin, CSRF token.
 */
final class AuthorizeEndpoint {

    /** The MCP endpoint's own scope: a grant without it could not call the resource it is for. */
    static final String REQUIRED_SCOPE = "mcp.use";

    private final OAuthSettings settings;
    private final Clients clients;
    private final ClientMetadataDocuments documents;
    private final Grants grants;
    private final PersonWorkspaces workspaces;
    private final PluginCatalog catalog;
    private final Clock clock;
    private volatile PeoplePages pages;

    AuthorizeEndpoint(OAuthSettings settings, Clients clients, ClientMetadataDocuments documents, Grants grants,
            PersonWorkspaces workspaces, PluginCatalog catalog, Clock clock) {
        this.settings = settings;
        this.clients = clients;
        this.documents = documents;
        this.grants = grants;
        this.workspaces = workspaces;
        this.catalog = catalog;
        this.clock = clock;
    }

    void pages(PeoplePages pages) {
        this.pages = pages;
    }

    RawResponse show(RawRequest request) {
        PageVisitor visitor = pages.visitor(request);
        AuthorizationRequest read = AuthorizationRequest.read(request::query, this::client, settings, catalog.scopes());
        if (!(read instanceof AuthorizationRequest.Valid valid)) {
            return refusal(visitor, read, 302);
        }
        Optional<SignedInPerson> person = visitor.person();
        if (person.isEmpty()) {
            return ConsentPage.signIn(visitor, valid, returnPath(valid));
        }
        List<PersonWorkspaces.Membership> memberships = workspaces.of(person.get().email());
        if (memberships.isEmpty()) {
            return visitor.notice(403, "No workspace", "You are signed in as " + person.get().email()
                    + ", which belongs to no workspace of this platform, so there is nothing to connect to.");
        }
        return ConsentPage.consent(visitor, person.get(), valid, memberships, new TreeSet<>(catalog.toolNames()));
    }

    RawResponse decide(RawRequest request) {
        PageVisitor visitor = pages.visitor(request);
        Optional<RawResponse> badForm = visitor.checkForm();
        if (badForm.isPresent()) {
            return badForm.get();
        }
        AuthorizationRequest read = AuthorizationRequest.read(visitor::form, this::client, settings, catalog.scopes());
        if (!(read instanceof AuthorizationRequest.Valid valid)) {
            return refusal(visitor, read, 303);
        }
        Optional<SignedInPerson> person = visitor.person();
        if (person.isEmpty()) {
            return ConsentPage.signIn(visitor, valid, returnPath(valid));
        }
        String issuer = settings.issuer();
        if (!visitor.form("decision").orElse("").equals("allow")) {
            return redirect(303, RedirectLocation.of(valid.redirectUri(), "error", "access_denied",
                    "error_description", "The person denied the request.", "state", valid.state(), "iss", issuer));
        }
        String chosen = visitor.form("workspace").orElse("");
        Optional<PersonWorkspaces.Membership> membership = workspaces.of(person.get().email()).stream()
                .filter(m -> m.workspaceId().toString().equals(chosen)).findFirst();
        if (membership.isEmpty()) {
            return visitor.notice(400, "Choose a workspace", "Choose one of your workspaces for the application "
                    + "to work in, then allow it again.");
        }
        String code = Secrets.random("");
        grants.consent(valid.client().clientId(), membership.get().workspaceId(), membership.get().userId(),
                settings.resource(), scopes(valid, visitor, membership.get().role()), tools(visitor), code,
                valid.redirectUri(), valid.codeChallenge(), clock.instant().plus(OAuthSettings.CODE_TTL));
        return redirect(303, RedirectLocation.of(valid.redirectUri(), "code", code, "state", valid.state(), "iss",
                issuer));
    }

    /**
     * A registered client, or the client a metadata document URL describes; the latter is recorded as a client too
     * (its grants refer to it, and the token endpoint knows it by that row).
     */
    private Optional<ClientMetadataDocuments.Outcome> client(String clientId) {
        if (ClientMetadataDocuments.isDocumentUrl(clientId)) {
            ClientMetadataDocuments.Outcome outcome = documents.resolve(clientId);
            if (outcome instanceof ClientMetadataDocuments.Outcome.Found found) {
                clients.remember(found.client());
            }
            return Optional.of(outcome);
        }
        return clients.find(clientId).map(ClientMetadataDocuments.Outcome.Found::new);
    }

    /** The mailed sign-in link for the address typed on the sign-in form, coming back to the request. */
    RawResponse signIn(RawRequest request) {
        PageVisitor visitor = pages.visitor(request);
        Optional<RawResponse> badForm = visitor.checkForm();
        if (badForm.isPresent()) {
            return badForm.get();
        }
        String returnTo = visitor.form("return").orElse("");
        Optional<String> email = visitor.form("email").map(String::strip).filter(e -> e.contains("@"));
        if (!returnTo.startsWith(OAuthSettings.AUTHORIZE + "?") || email.isEmpty()) {
            return visitor.notice(400, "Sign-in not started", "Type your e-mail address on the sign-in form of the "
                    + "application's request, then send it again.");
        }
        return visitor.startSignIn(email.get(), returnTo);
    }

    /** What was asked and left checked, capped by the role; the MCP endpoint's own scope always. */
    private List<String> scopes(AuthorizationRequest.Valid valid, PageVisitor visitor, String role) {
        Set<String> checked = Set.copyOf(visitor.formValues(ConsentPage.SCOPE_FIELD));
        Set<String> allowed = catalog.scopesOfRole(role);
        List<String> scopes = new ArrayList<>();
        if (catalog.scopes().contains(REQUIRED_SCOPE)) {
            scopes.add(REQUIRED_SCOPE);
        }
        for (String scope : valid.scopes()) {
            if (checked.contains(scope) && allowed.contains(scope) && !scopes.contains(scope)) {
                scopes.add(scope);
            }
        }
        return scopes;
    }

    /** Null (every tool) unless the person unchecked some on the consent page. */
    private List<String> tools(PageVisitor visitor) {
        if (visitor.form(ConsentPage.TOOLS_SHOWN_FIELD).isEmpty()) {
            return null;
        }
        Set<String> known = catalog.toolNames();
        List<String> checked = visitor.formValues(ConsentPage.TOOL_FIELD).stream().filter(known::contains)
                .distinct().sorted().toList();
        return checked.size() == known.size() ? null : checked;
    }

    private RawResponse refusal(PageVisitor visitor, AuthorizationRequest read, int redirectStatus) {
        if (read instanceof AuthorizationRequest.Refused refused) {
            return redirect(redirectStatus, refused.location());
        }
        AuthorizationRequest.Unsafe unsafe = (AuthorizationRequest.Unsafe) read;
        return visitor.notice(400, unsafe.heading(), unsafe.text());
    }

    private static String returnPath(AuthorizationRequest.Valid valid) {
        return RedirectLocation.of(OAuthSettings.AUTHORIZE, "response_type", "code", "client_id",
                valid.client().clientId(), "redirect_uri", valid.redirectUri(), "code_challenge",
                valid.codeChallenge(), "code_challenge_method", "S256", "state", valid.state(), "scope",
                valid.scopesAsked() ? String.join(" ", valid.scopes()) : null);
    }

    private static RawResponse redirect(int status, String location) {
        return new RawResponse(status, Map.of("Location", location, "Cache-Control", "no-store"), null, null);
    }
}
