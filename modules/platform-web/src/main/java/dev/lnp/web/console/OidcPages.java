package dev.lnp.web.console;

import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationErrorResponse;
import com.nimbusds.openid.connect.sdk.AuthenticationResponse;
import com.nimbusds.openid.connect.sdk.AuthenticationResponseParser;
import com.nimbusds.openid.connect.sdk.Nonce;
import java.lang.System.Logger.Level;
import java.net.URI;

/**
 * Sign-in at the deployment's OpenID Connect provider: the start (a redirect there, with state, nonce and PKCE bound
 * to this browser) and the callback, which checks all of them, lets {@link ProviderAccounts} decide who the person
 * is here, and starts the session exactly as an e-mailed link does. Every failure is a readable page.
 */
final class OidcPages {

    static final String CALLBACK = "/console/sign-in/oidc/callback";
    private static final System.Logger LOG = System.getLogger(OidcPages.class.getName());

    private final Console console;
    private final OidcProvider provider;
    private final OidcSignIns signIns;
    private final ProviderAccounts accounts;

    OidcPages(Console console, OidcProvider provider, OidcSignIns signIns, ProviderAccounts accounts) {
        this.console = console;
        this.provider = provider;
        this.signIns = signIns;
        this.accounts = accounts;
    }

    private String name() {
        return provider.settings().displayName();
    }

    private URI callback() {
        return URI.create(console.settings().link(CALLBACK));
    }

    /**
     * A link, not a form: a form's redirect to another origin is refused by the pages' {@code form-action 'self'}.
     * Starting costs a row, so it counts against the client address's sign-in limit.
     */
    void start(ConsoleExchange x) {
        String browser = x.browserNonce();
        var settings = console.settings();
        if (!console.throttle().allow("ip:" + x.clientIp(), settings.perIp())) {
            x.render(429, "notice.jte", console.notice(x, "Too many sign-in attempts",
                    "Too many sign-ins were started from this network. Wait " + settings.throttleWindow().toMinutes()
                            + " minutes, then try again.", "/console/sign-in", "Back to sign-in"));
            return;
        }
        var state = new State();
        var nonce = new Nonce();
        var verifier = new CodeVerifier();
        URI destination;
        try {
            destination = provider.authorizationUri(state, nonce, verifier, callback());
        } catch (OidcProvider.Unavailable e) {
            unavailable(x, e);
            return;
        }
        signIns.begin(state.getValue(), browser, nonce.getValue(), verifier.getValue());
        x.redirect(destination.toString());
    }

    void callback(ConsoleExchange x) {
        String browser = x.cookie(ConsoleExchange.BROWSER_COOKIE).orElse(null);
        if (browser == null) {
            problem(x, 403, "Sign-in could not be finished", "This browser did not keep the sign-in's cookie. Allow "
                    + "cookies for this site and sign in again.");
            return;
        }
        AuthenticationResponse response;
        try {
            String query = x.request().query().rawValue();
            response = AuthenticationResponseParser.parse(URI.create(console.settings().link(CALLBACK)
                    + (query == null || query.isEmpty() ? "" : "?" + query)));
        } catch (ParseException | IllegalArgumentException e) {
            problem(x, 400, "Sign-in could not be finished", "The answer from " + name() + " could not be read. "
                    + "Sign in again.");
            return;
        }
        String state = response.getState() == null ? null : response.getState().getValue();
        var taken = signIns.take(state, browser);
        switch (taken.outcome()) {
            case UNKNOWN -> problem(x, 400, "Sign-in could not be finished", "This sign-in was not started here, or "
                    + "its answer is incomplete. Sign in again.");
            case EXPIRED -> problem(x, 410, "This sign-in has expired", "A sign-in at " + name() + " must be finished "
                    + "within " + OidcSignIns.LIFETIME.toMinutes() + " minutes. Sign in again.");
            case ALREADY_USED -> problem(x, 410, "This sign-in was already used", "Each sign-in at " + name()
                    + " works once. Sign in again.");
            case OTHER_BROWSER -> problem(x, 403, "Finish signing in in the browser that started it", "For your "
                    + "safety a sign-in works only in the browser where it began. Sign in again from this browser.");
            case STARTED -> finish(x, response, taken);
        }
    }

    private void finish(ConsoleExchange x, AuthenticationResponse response, OidcSignIns.Taken taken) {
        if (!response.indicatesSuccess()) {
            AuthenticationErrorResponse error = response.toErrorResponse();
            var code = error.getErrorObject() == null ? null : error.getErrorObject().getCode();
            String text = "access_denied".equals(code)
                    ? name() + " did not sign you in (the sign-in was cancelled or refused there)."
                    : name() + " could not sign you in (" + code + ").";
            problem(x, 403, "Not signed in", text + " Sign in again, or ask for an e-mailed link.");
            return;
        }
        OidcProvider.Identity identity;
        try {
            identity = provider.redeem(response.toSuccessResponse().getAuthorizationCode(),
                    new CodeVerifier(taken.codeVerifier()), new Nonce(taken.nonce()), callback());
        } catch (OidcProvider.Unavailable e) {
            unavailable(x, e);
            return;
        } catch (OidcProvider.Rejected e) {
            LOG.log(Level.WARNING, "Sign-in at " + name() + " refused: " + e.getMessage());
            problem(x, 502, "Sign-in could not be finished", "The platform could not confirm the sign-in with "
                    + name() + ": " + e.getMessage() + ". Sign in again; if it keeps failing, tell your administrator.");
            return;
        }
        switch (accounts.admit(identity, name())) {
            case ProviderAccounts.Refused refused -> problem(x, 403, refused.heading(), refused.text());
            case ProviderAccounts.Admitted admitted -> {
                // Whatever session this browser had ends: the new one gets a new id (no session fixation).
                x.session().ifPresent(old -> console.sessions().end(old.id()));
                var only = admitted.memberships().size() == 1 ? admitted.memberships().get(0).userId() : null;
                var issued = console.sessions().create(identity.email(), only, x.userAgent(), x.clientIp());
                signIns.remember(issued.session().id(), identity.idToken());
                x.startSession(issued.token());
                x.redirect(only == null ? "/console/workspaces" : "/console");
            }
        }
    }

    private void unavailable(ConsoleExchange x, OidcProvider.Unavailable e) {
        LOG.log(Level.WARNING, "Sign-in provider " + name() + " unavailable: " + e.getMessage());
        problem(x, 503, name() + " cannot be reached", "Signing in with " + name() + " is not possible right now: "
                + "the platform cannot reach it. Try again in a few minutes, or ask for an e-mailed sign-in link.");
    }

    private void problem(ConsoleExchange x, int status, String heading, String text) {
        x.render(status, "notice.jte", console.notice(x, heading, text, "/console/sign-in", "Back to sign-in"));
    }

    /** Where signing out of {@code sessionId} continues at the provider, if it began there and the provider says. */
    java.util.Optional<URI> signOutAtProvider(java.util.UUID sessionId) {
        return signIns.idToken(sessionId)
                .flatMap(token -> provider.logoutUri(token, URI.create(console.settings().link("/console/sign-in"))));
    }
}
