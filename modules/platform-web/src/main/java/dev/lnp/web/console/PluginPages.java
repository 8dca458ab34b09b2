package dev.lnp.web.console;

import dev.lnp.api.http.RawRequest;
import dev.lnp.api.http.RawResponse;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.PageExchange;
import dev.lnp.api.people.PageVisitor;
import dev.lnp.api.people.PeoplePages;
import dev.lnp.api.people.SignedInPerson;
import io.helidon.webserver.http.ServerRequest;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The core's {@link PeoplePages}: a plugin's raw route sees the console session of the browser (the cookies have
 * {@code Path=/}), starts a sign-in that comes back to it, checks its forms' CSRF tokens, and answers pages in the
 * console's layout with the console's security headers.
 */
final class PluginPages implements PeoplePages {

    private static final System.Logger LOG = System.getLogger(PluginPages.class.getName());

    private static final int MAX_EMAIL = 254;

    private final Console console;

    PluginPages(Console console) {
        this.console = console;
    }

    @Override
    public PageVisitor visitor(RawRequest request) {
        ServerRequest server = console.http().serverRequest(request).orElseThrow(() -> new IllegalArgumentException(
                "PeoplePages.visitor needs the RawRequest the platform handed to the route"));
        return new Visitor(request, server);
    }

    private final class Visitor implements PageVisitor {
        private final RawRequest raw;
        private final ServerRequest server;
        private final ConsoleSession session;
        private String newNonce;
        private Map<String, List<String>> form;

        Visitor(RawRequest raw, ServerRequest server) {
            this.raw = raw;
            this.server = server;
            this.session = cookie(ConsoleExchange.SESSION_COOKIE).flatMap(console.sessions()::find).orElse(null);
        }

        private Optional<String> cookie(String name) {
            // The last one: with Path=/ and a legacy Path=/console cookie, the browser sends the more specific first.
            List<String> all = server.headers().cookies().all(name, List::of);
            return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
        }

        /** The browser's pre-sign-in nonce, made (and set on the answer) when it has none. */
        private String nonce() {
            if (newNonce != null) {
                return newNonce;
            }
            Optional<String> existing = cookie(ConsoleExchange.BROWSER_COOKIE).filter(v -> v.length() >= 40 && v.length() <= 60);
            if (existing.isPresent()) {
                return existing.get();
            }
            newNonce = Secrets.newToken();
            return newNonce;
        }

        @Override
        public Optional<SignedInPerson> person() {
            return Optional.ofNullable(session).map(s -> new SignedInPerson(s.email(), s.id(), s.userId(),
                    s.workspaceId(), s.role()));
        }

        @Override
        public String csrfToken() {
            return session != null ? session.csrfToken() : ConsoleExchange.preSessionCsrf(nonce());
        }

        private Map<String, List<String>> form() {
            if (form == null) {
                String type = raw.header("Content-Type").orElse("").split(";")[0].strip().toLowerCase(Locale.ROOT);
                form = type.equals("application/x-www-form-urlencoded") ? ConsoleExchange.parseForm(raw.body()) : Map.of();
            }
            return form;
        }

        @Override
        public Optional<String> form(String name) {
            List<String> values = formValues(name);
            return values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
        }

        @Override
        public List<String> formValues(String name) {
            try {
                return form().getOrDefault(name, List.of());
            } catch (PageExchange.BadForm bad) {
                return List.of();
            }
        }

        @Override
        public Optional<RawResponse> checkForm() {
            String type = raw.header("Content-Type").orElse("").split(";")[0].strip().toLowerCase(Locale.ROOT);
            if (!type.equals("application/x-www-form-urlencoded")) {
                return Optional.of(notice(400, "The form could not be read",
                        "The form must be sent as application/x-www-form-urlencoded."));
            }
            try {
                form();
            } catch (PageExchange.BadForm bad) {
                return Optional.of(notice(400, "The form could not be read", bad.getMessage()));
            }
            String origin = ConsoleExchange.requestOrigin(server.headers());
            if (origin == null || !origin.equalsIgnoreCase(console.settings().origin())) {
                return Optional.of(notice(403, "Not allowed", "This form was not sent from "
                        + console.settings().origin() + ". Open the page there and try again."));
            }
            String expected = session != null ? session.csrfToken()
                    : cookie(ConsoleExchange.BROWSER_COOKIE).map(ConsoleExchange::preSessionCsrf).orElse(null);
            if (expected == null || !Secrets.same(form(CSRF_FIELD).orElse(null), expected)) {
                return Optional.of(notice(403, "Not allowed",
                        "This form has expired or did not come from this page. Reload the page and try again."));
            }
            return Optional.empty();
        }

        @Override
        public RawResponse startSignIn(String email, String returnTo) {
            String address = email == null ? "" : email.strip();
            if (address.isEmpty() || address.length() > MAX_EMAIL || !address.matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+")) {
                return notice(400, "Cannot send a sign-in link", "The address " + address + " is not an e-mail address.");
            }
            if (!ReturnPaths.isLocal(returnTo)) {
                return notice(400, "Cannot send a sign-in link",
                        "After signing in, the browser can only return to a page of this site, not to "
                                + (returnTo == null ? "nowhere" : returnTo) + ".");
            }
            var settings = console.settings();
            boolean allowed = console.throttle().allow("ip:" + clientIp(), settings.perIp())
                    && console.throttle().allow("address:" + address.toLowerCase(Locale.ROOT), settings.perAddress());
            if (!allowed) {
                return notice(429, "Too many sign-in requests",
                        "Too many sign-in links were requested for this address or from this network. Wait "
                                + settings.throttleWindow().toMinutes() + " minutes, then try again.");
            }
            // Here the link goes to any address the page names, so a failure may be said as it is.
            try {
                String token = console.links().issue(address, nonce(), SignInLinks.Purpose.SIGN_IN, null,
                        settings.linkLifetime(), returnTo);
                console.signInPages().sendLink(address, token);
            } catch (IllegalArgumentException e) {
                return notice(400, "Cannot send a sign-in link", "The platform cannot send mail to " + address + " ("
                        + e.getMessage() + ").");
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "A sign-in link from a plugin page could not be queued: "
                        + FailureText.of(e));
                return notice(503, "The sign-in link could not be sent", "Sending mail failed; the failure was "
                        + "logged for the operator. Try again in a few minutes.");
            }
            return notice(200, "Check your e-mail", "A sign-in link is on its way to " + address + ". It works once, for "
                    + settings.linkLifetime().toMinutes() + " minutes, and only in this browser; it brings you back here.");
        }

        private String clientIp() {
            return server.remotePeer().address() instanceof InetSocketAddress address
                    ? address.getAddress().getHostAddress() : "unknown";
        }

        @Override
        public RawResponse page(int status, String title, String bodyHtml) {
            var model = new Views.PluginPage(console.chrome(session, title, null), bodyHtml == null ? "" : bodyHtml);
            return answer(status, console.templates().render("pluginpage.jte", model));
        }

        @Override
        public RawResponse notice(int status, String heading, String text) {
            var model = new Views.Notice(console.chrome(session, heading, null), heading, text, null, null);
            return answer(status, console.templates().render("notice.jte", model));
        }

        private RawResponse answer(int status, String html) {
            Map<String, String> headers = new LinkedHashMap<>(ConsoleExchange.PAGE_HEADERS);
            if (newNonce != null) {
                headers.put("Set-Cookie", ConsoleExchange.cookie(console.settings(), ConsoleExchange.BROWSER_COOKIE,
                        newNonce).maxAge(Duration.ofDays(1)).build().text());
            }
            return new RawResponse(status, headers, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
        }
    }

}
