package dev.lnp.web.console;

import dev.lnp.api.internal.console.Ids;
import dev.lnp.api.internal.console.SignInInvitations;
import dev.lnp.api.mail.OutgoingMail;
import java.lang.System.Logger.Level;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.UUID;

/**
 * Sign-in by e-mailed link, choosing a workspace, signing out. The answer to a sign-in request is the same
 * whether or not the address belongs to anyone, and the limits count unknown addresses too, so neither tells
 * who has an account.
 */
final class SignInPages {

    private static final System.Logger LOG = System.getLogger(SignInPages.class.getName());
    private static final int MAX_EMAIL = 254;

    private final Console console;

    SignInPages(Console console) {
        this.console = console;
    }

    void form(ConsoleExchange x) {
        if (x.session().isPresent()) {
            throw new ConsoleExchange.Redirect("/console");
        }
        String nonce = x.browserNonce();
        x.render(200, "signin.jte", new Views.SignIn(console.chrome(x, "Sign in", null),
                ConsoleExchange.preSessionCsrf(nonce), "", null, console.providerName()));
    }

    void request(ConsoleExchange x) {
        String nonce = x.cookie(ConsoleExchange.BROWSER_COOKIE).orElseThrow(() -> new ConsoleExchange.Forbidden(
                "Signing in needs cookies. Allow cookies for this site, reload the sign-in page and try again."));
        x.checkPost(ConsoleExchange.preSessionCsrf(nonce));
        String email = x.form("email") == null ? "" : x.form("email").strip();
        if (email.isEmpty() || email.length() > MAX_EMAIL || !email.matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+")) {
            x.render(400, "signin.jte", new Views.SignIn(console.chrome(x, "Sign in", null),
                    ConsoleExchange.preSessionCsrf(nonce), email,
                    "Enter your e-mail address, for example ada@example.com.", console.providerName()));
            return;
        }
        var settings = console.settings();
        boolean allowed = console.throttle().allow("ip:" + x.clientIp(), settings.perIp())
                && console.throttle().allow("address:" + email.toLowerCase(Locale.ROOT), settings.perAddress());
        if (!allowed) {
            x.render(429, "notice.jte", console.notice(x, "Too many sign-in requests",
                    "Too many sign-in links were requested for this address or from this network. Wait "
                            + settings.throttleWindow().toMinutes() + " minutes, then try again.",
                    "/console/sign-in", "Back to sign-in"));
            return;
        }
        var memberships = console.people().memberships(email);
        if (!memberships.isEmpty() && console.policy().byLink(memberships).isEmpty()) {
            // Telling the person beats a link that would not open anything; the workspace chose the provider.
            linksRefused(x);
            return;
        }
        if (!memberships.isEmpty()) {
            mintAndSend(email, nonce);
        }
        x.render(200, "notice.jte", console.notice(x, "Check your e-mail",
                "If " + email + " belongs to a user of this platform, a sign-in link is on its way. It works once, for "
                        + settings.linkLifetime().toMinutes() + " minutes, and only in this browser.",
                null, null));
    }

    /**
     * A link for a known address, queued in the outbox, whose sender retries SMTP failures. A failure before the
     * message is queued (rendering, the database) is logged and the answer stays the one an unknown address gets:
     * a different page would tell who has an account. The person can ask again.
     */
    private void mintAndSend(String email, String nonce) {
        try {
            String token = console.links().issue(email, nonce, SignInLinks.Purpose.SIGN_IN, null,
                    console.settings().linkLifetime());
            sendLink(email, token);
        } catch (IllegalArgumentException e) {
            LOG.log(Level.WARNING, "Sign-in link not sent, the mail service refused the address: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "Sign-in link for a known address could not be queued (the person was told the "
                    + "same as for any address): " + FailureText.of(e));
        }
    }

    /**
     * Deployment mail (no workspace): the person may belong to several. Throws {@link IllegalArgumentException}
     * when the mail service refuses the address (it passed our own check), or whatever rendering or queueing threw.
     */
    void sendLink(String email, String token) {
        String link = console.settings().link("/console/sign-in/link?token="
                + URLEncoder.encode(token, StandardCharsets.UTF_8));
        var model = new Views.LinkMail(link, console.settings().linkLifetime().toMinutes() + " minutes",
                "Someone (hopefully you) asked to sign in to the workspace platform with this address.",
                "Sign in");
        console.mailer().send(new OutgoingMail(null, email, "Your sign-in link",
                console.templates().renderText("signin.jte", model),
                console.templates().render("mail/link.jte", model), "sign-in-link"));
    }

    /** Opening the link only shows a button: mail scanners that follow links must not use it up. */
    void confirmPage(ConsoleExchange x) {
        String nonce = x.browserNonce();
        String token = x.query("token");
        x.render(200, "confirm.jte", new Views.ConfirmLink(console.chrome(x, "Finish signing in", null),
                ConsoleExchange.preSessionCsrf(nonce), token == null ? "" : token));
    }

    void useLink(ConsoleExchange x) {
        String nonce = x.cookie(ConsoleExchange.BROWSER_COOKIE).orElse(null);
        if (nonce == null) {
            throw new ConsoleExchange.Forbidden("Open the sign-in link in the browser where you asked for it.");
        }
        x.checkPost(ConsoleExchange.preSessionCsrf(nonce));
        var result = console.links().use(x.form("token"), nonce);
        switch (result.outcome()) {
            case UNKNOWN -> linkProblem(x, 404, "This link is not valid",
                    "The link is incomplete or was never issued. Request a new one.");
            case EXPIRED -> linkProblem(x, 410, "This link has expired",
                    "Sign-in links work for " + console.settings().linkLifetime().toMinutes()
                            + " minutes. Request a new one.");
            case ALREADY_USED -> linkProblem(x, 410, "This link was already used",
                    "Each link signs in once. Request a new one.");
            case OTHER_BROWSER -> linkProblem(x, 403, "Open the link in the browser that asked for it",
                    "For your safety a sign-in link works only in the browser where it was requested. Request a "
                            + "new link from this browser.");
            case SIGNED_IN -> signIn(x, result);
        }
    }

    private void linksRefused(ConsoleExchange x) {
        x.render(403, "notice.jte", console.notice(x, "Sign in with " + console.providerName(),
                "Your workspace does not accept e-mailed sign-in links: its members sign in with "
                        + console.providerName() + ".", "/console/sign-in/oidc", "Sign in with "
                        + console.providerName()));
    }

    private void linkProblem(ConsoleExchange x, int status, String heading, String text) {
        x.render(status, "notice.jte", console.notice(x, heading, text, "/console/sign-in", "Request a new link"));
    }

    private void signIn(ConsoleExchange x, SignInLinks.Result result) {
        // Whatever session this browser had ends: the new one gets a new id (no session fixation).
        x.session().ifPresent(old -> console.sessions().end(old.id()));
        var all = console.people().memberships(result.email());
        // A sign-in link opens only the workspaces that still accept links; an invitation is the workspace's own.
        var memberships = result.purpose() == SignInLinks.Purpose.SIGN_IN ? console.policy().byLink(all) : all;
        if (!all.isEmpty() && memberships.isEmpty()) {
            linksRefused(x);
            return;
        }
        UUID userId = null;
        if (result.workspaceId() != null) {
            userId = memberships.stream().filter(m -> m.workspaceId().equals(result.workspaceId()))
                    .map(SignInInvitations.Membership::userId).findFirst().orElse(null);
        } else if (memberships.size() == 1) {
            userId = memberships.get(0).userId();
        }
        // A sign-in started from a plugin's page (PeoplePages) may be for an address with no account yet: the
        // session then has no workspace, and the person goes back to that page.
        String returnTo = ReturnPaths.isLocal(result.returnTo()) ? result.returnTo() : null;
        if (memberships.isEmpty() && returnTo == null) {
            linkProblem(x, 403, "No workspace", "This address no longer belongs to a user of any workspace.");
            return;
        }
        var issued = console.sessions().create(result.email(), userId, x.userAgent(), x.clientIp());
        x.startSession(issued.token());
        x.redirect(returnTo != null ? returnTo : userId == null ? "/console/workspaces" : "/console");
    }

    void chooseWorkspace(ConsoleExchange x) {
        var session = x.session().orElseThrow(() -> new ConsoleExchange.Redirect("/console/sign-in"));
        x.render(200, "workspaces.jte", new Views.ChooseWorkspace(console.chrome(x, "Choose a workspace", null),
                console.policy().forSession(session)));
    }

    /** Acting as another workspace's user is a change of privilege: the session gets a new id. */
    void enterWorkspace(ConsoleExchange x) {
        var session = x.session().orElseThrow(() -> new ConsoleExchange.Redirect("/console/sign-in"));
        x.checkPost(session.csrfToken());
        UUID userId = Ids.parse(x.form("user_id"));
        var membership = userId == null ? null : console.policy().forSession(session).stream()
                .filter(m -> m.userId().equals(userId)).findFirst().orElse(null);
        if (membership == null) {
            x.render(404, "notice.jte", console.notice(x, "No such workspace",
                    "You are not a user of that workspace.", "/console/workspaces", "Choose a workspace"));
            return;
        }
        var issued = console.sessions().renew(session, userId, x.userAgent(), x.clientIp());
        x.startSession(issued.token());
        x.redirect("/console");
    }

    /**
     * Ends the session here; one that began at the OpenID Connect provider continues there (RP-initiated logout),
     * which sends the browser back to the sign-in page.
     */
    void signOut(ConsoleExchange x) {
        var session = x.session().orElse(null);
        String next = "/console/sign-in";
        if (session != null) {
            x.checkPost(session.csrfToken());
            next = console.signOutAtProvider(session.id()).map(java.net.URI::toString).orElse(next);
            console.sessions().end(session.id());
        }
        x.endSessionCookie();
        x.redirect(next);
    }
}
