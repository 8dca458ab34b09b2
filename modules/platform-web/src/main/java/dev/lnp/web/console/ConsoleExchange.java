package dev.lnp.web.console;

import dev.lnp.api.internal.console.Chrome;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.PageExchange;
import io.helidon.http.HeaderNames;
import io.helidon.http.SetCookie;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One console request: cookies, the form body, the signed-in session, CSRF and origin checks, and the answers
 * (a rendered page, a redirect). Every page answer carries the same security headers and is never cached.
 */
public final class ConsoleExchange implements PageExchange {

    static final String SESSION_COOKIE = "lnp_console";
    static final String FLASH_COOKIE = "lnp_notice";
    private static final int MAX_FLASH = 300;
    static final String BROWSER_COOKIE = "lnp_browser";
    private static final int MAX_FORM_BYTES = 64 * 1024;

    private final ServerRequest req;
    private final ServerResponse res;
    private final Console console;
    private Map<String, List<String>> form;
    private ConsoleSession session;
    private boolean sessionLoaded;
    private final long startedNanos = System.nanoTime();

    ConsoleExchange(ServerRequest req, ServerResponse res, Console console) {
        this.req = req;
        this.res = res;
        this.console = console;
    }

    @Override
    public ServerRequest request() {
        return req;
    }

    /**
     * The cookie's value; when the browser sends two (an old {@code Path=/console} one and the current
     * {@code Path=/} one), the current one, which browsers send last (less specific path).
     */
    public Optional<String> cookie(String name) {
        List<String> all = req.headers().cookies().all(name, List::of);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    @Override
    public String query(String name) {
        return req.query().first(name).asOptional().orElse(null);
    }

    @Override
    public String pathParam(String name) {
        return req.path().pathParameters().first(name).asOptional().orElse(null);
    }

    public String clientIp() {
        return req.remotePeer().address() instanceof InetSocketAddress address
                ? address.getAddress().getHostAddress() : "unknown";
    }

    public String userAgent() {
        return req.headers().first(HeaderNames.USER_AGENT).orElse(null);
    }

    /** The signed-in session, if the cookie names a live one. */
    @Override
    public Optional<ConsoleSession> session() {
        if (!sessionLoaded) {
            session = cookie(SESSION_COOKIE).flatMap(console.sessions()::find).orElse(null);
            sessionLoaded = true;
        }
        return Optional.ofNullable(session);
    }

    /** The session of a person who chose a workspace; otherwise a redirect has been sent and this throws. */
    @Override
    public ConsoleSession requireWorkspaceSession() {
        var current = session().orElseThrow(() -> new Redirect("/console/sign-in"));
        if (!current.hasWorkspace()) {
            throw new Redirect("/console/workspaces");
        }
        return current;
    }

    @Override
    public String form(String name) {
        List<String> values = form().get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public List<String> formValues(String name) {
        return form().getOrDefault(name, List.of());
    }

    private Map<String, List<String>> form() {
        if (form == null) {
            form = parseForm();
        }
        return form;
    }

    private Map<String, List<String>> parseForm() {
        // The raw header: Helidon's parsed Content-Type throws on a malformed parameter, which would be a 500.
        String type = req.headers().first(HeaderNames.CONTENT_TYPE).orElse("");
        int semicolon = type.indexOf(';');
        String mediaType = (semicolon < 0 ? type : type.substring(0, semicolon)).strip();
        if (!mediaType.equalsIgnoreCase("application/x-www-form-urlencoded")) {
            throw new PageExchange.BadForm("The form must be sent as application/x-www-form-urlencoded.");
        }
        byte[] body;
        try (InputStream in = req.content().inputStream()) {
            body = in.readNBytes(MAX_FORM_BYTES + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return parseForm(body);
    }

    /**
     * A state-changing request must come from the console's own origin ({@code Origin}, or the origin of
     * {@code Referer} when a browser sent no {@code Origin}) and carry the CSRF token of the session that
     * rendered its form.
     */
    @Override
    public void checkPost(String expectedToken) {
        String origin = requestOrigin(req.headers());
        if (origin == null || !origin.equalsIgnoreCase(console.settings().origin())) {
            throw new Forbidden("This form was not sent from " + console.settings().origin()
                    + ". Open the console there and try again.");
        }
        if (!Secrets.same(form("csrf"), expectedToken)) {
            throw new Forbidden("This form has expired or did not come from this console. Reload the page and try again.");
        }
    }

    /** The origin a state-changing request came from ({@code Origin}, else the origin of {@code Referer}), or null. */
    static String requestOrigin(io.helidon.http.ServerRequestHeaders headers) {
        return headers.first(HeaderNames.ORIGIN)
                .or(() -> headers.first(HeaderNames.REFERER).map(ConsoleExchange::originOf))
                .orElse(null);
    }

    /** Parses a URL-encoded form body; throws {@link BadForm} when it cannot be read. */
    static Map<String, List<String>> parseForm(byte[] body) {
        if (body.length > MAX_FORM_BYTES) {
            throw new PageExchange.BadForm("The form is larger than 64 KiB.");
        }
        Map<String, List<String>> values = new LinkedHashMap<>();
        String text = new String(body, StandardCharsets.UTF_8);
        if (text.isEmpty()) {
            return values;
        }
        for (String pair : text.split("&")) {
            int eq = pair.indexOf('=');
            try {
                String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                values.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
            } catch (IllegalArgumentException e) {
                throw new PageExchange.BadForm("The form is not valid URL encoding.");
            }
        }
        return values;
    }

    private static String originOf(String referer) {
        try {
            var uri = java.net.URI.create(referer);
            return uri.getScheme() + "://" + uri.getRawAuthority();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The pre-sign-in nonce of this browser, set if absent. It binds a sign-in link to the browser that asked. */
    public String browserNonce() {
        Optional<String> existing = cookie(BROWSER_COOKIE).filter(v -> v.length() >= 40 && v.length() <= 60);
        if (existing.isPresent()) {
            return existing.get();
        }
        String nonce = Secrets.newToken();
        setCookie(BROWSER_COOKIE, nonce, Duration.ofDays(1));
        return nonce;
    }

    /** The CSRF token of a form shown before sign-in: derived from the browser's nonce, which a page elsewhere cannot read. */
    public static String preSessionCsrf(String browserNonce) {
        return Secrets.hashText("csrf:" + browserNonce);
    }

    public void startSession(String token) {
        setCookie(SESSION_COOKIE, token, console.settings().sessionLifetime());
        clearLegacyCookie(SESSION_COOKIE);
    }

    public void endSessionCookie() {
        res.headers().addCookie(cookieBuilder(SESSION_COOKIE, "").maxAge(Duration.ZERO).build());
        clearLegacyCookie(SESSION_COOKIE);
    }

    /**
     * Cookies were once set with {@code Path=/console}; a browser would send such an old cookie first on console
     * pages. Expiring it whenever the session cookie changes leaves only the {@code Path=/} one (a browser without
     * one ignores this).
     */
    private void clearLegacyCookie(String name) {
        res.headers().addCookie(SetCookie.builder(name, "").path("/console").httpOnly(true)
                .sameSite(SetCookie.SameSite.LAX).secure(console.settings().secureCookies()).maxAge(Duration.ZERO)
                .build());
    }

    /** A cookie only the console's own pages get ({@code Path=/console}); a zero {@code maxAge} clears it. */
    void consoleCookie(String name, String value, Duration maxAge) {
        mountCookie("/console", name, value, maxAge);
    }

    /** A cookie only the pages under {@code mount} get ({@code /console} or {@code /app}); zero clears it. */
    void mountCookie(String mount, String name, String value, Duration maxAge) {
        res.headers().addCookie(SetCookie.builder(name, value).path(mount).httpOnly(true)
                .sameSite(SetCookie.SameSite.LAX).secure(console.settings().secureCookies()).maxAge(maxAge).build());
    }

    private void setCookie(String name, String value, Duration maxAge) {
        res.headers().addCookie(cookieBuilder(name, value).maxAge(maxAge).build());
    }

    /**
     * {@code Path=/}: plugin pages for people outside {@code /console} (e.g. {@code /api/agent-trials/approve},
     * through PeoplePages) must see who is signed in. Safe because the cookies are HttpOnly and SameSite=Lax, and
     * the API authenticates by key only: no API route reads them.
     */
    static SetCookie.Builder cookie(ConsoleSettings settings, String name, String value) {
        return SetCookie.builder(name, value).path("/").httpOnly(true)
                .sameSite(SetCookie.SameSite.LAX).secure(settings.secureCookies());
    }

    private SetCookie.Builder cookieBuilder(String name, String value) {
        return SetCookie.builder(name, value).path("/").httpOnly(true)
                .sameSite(SetCookie.SameSite.LAX).secure(console.settings().secureCookies());
    }

    /** A message for the page the browser is sent to next, shown once there (after an action's redirect). */
    public void flash(String text) {
        if (text != null && !text.isBlank()) {
            String value = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                    text.substring(0, Math.min(text.length(), MAX_FLASH)).getBytes(StandardCharsets.UTF_8));
            setCookie(FLASH_COOKIE, value, Duration.ofMinutes(1));
        }
    }

    /** The message {@link #flash} left for this page, once: the cookie is cleared as it is read. */
    public Optional<String> takeFlash() {
        Optional<String> value = cookie(FLASH_COOKIE).filter(v -> !v.isEmpty());
        if (value.isEmpty()) {
            return Optional.empty();
        }
        setCookie(FLASH_COOKIE, "", Duration.ZERO);
        try {
            return Optional.of(new String(java.util.Base64.getUrlDecoder().decode(value.get()),
                    StandardCharsets.UTF_8)).filter(text -> !text.isBlank());
        } catch (IllegalArgumentException notOurs) {
            return Optional.empty();
        }
    }

    @Override
    public void render(int status, String template, Object model) {
        securityHeaders();
        res.status(Status.create(status));
        res.header(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
        res.send(console.templates().render(template, model));
    }

    /** A page whose body {@code bodyHtml} another module rendered (a subsystem's templates), in the console's layout. */
    @Override
    public void renderPage(int status, Chrome chrome, String bodyHtml) {
        render(status, "pluginpage.jte", new Views.PluginPage(chrome, bodyHtml));
    }

    /**
     * Starts a response that is written as it goes (server-sent events), with the pages' security headers; the
     * caller writes and flushes, and closes it to end the response.
     */
    public java.io.OutputStream stream(String contentType) {
        securityHeaders();
        res.status(Status.OK_200);
        res.header(HeaderNames.CONTENT_TYPE, contentType);
        return res.outputStream();
    }

    @Override
    public void redirect(String path) {
        securityHeaders();
        res.status(Status.SEE_OTHER_303);
        res.header(HeaderNames.LOCATION, path);
        res.send();
    }

    private void securityHeaders() {
        // The server's own time for the page (queries and rendering), visible in the browser's developer tools.
        res.header(HeaderNames.create("Server-Timing"), String.format(java.util.Locale.ROOT, "app;dur=%.1f",
                (System.nanoTime() - startedNanos) / 1_000_000.0));
        PAGE_HEADERS.forEach((name, value) -> res.header(HeaderNames.create(name), value));
        String provider = console.providerOrigin();
        if (provider != null) {
            // Signing out continues at the OpenID Connect provider: the sign-out form's redirect leads there.
            res.header(HeaderNames.create("Content-Security-Policy"), PAGE_HEADERS.get("Content-Security-Policy")
                    .replace("form-action 'self'", "form-action 'self' " + provider));
        }
    }

    /** The security headers of every page: console pages and plugin pages built with PeoplePages. */
    static final Map<String, String> PAGE_HEADERS = Map.of(
            "Cache-Control", "no-store",
            "Content-Security-Policy",
            "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; "
                    + "form-action 'self'; "
                    + "frame-ancestors 'none'; base-uri 'none'",
            "X-Content-Type-Options", "nosniff",
            // Sign-in links carry their token in the URL: never hand it to another site as a referrer. Not
            // "no-referrer": with it a browser sends "Origin: null" on the console's own form posts.
            "Referrer-Policy", "same-origin");

    /** Ends handling with a redirect (e.g. to the sign-in page). */
    public static final class Redirect extends RuntimeException {
        final String location;

        Redirect(String location) {
            super(location, null, false, false);
            this.location = location;
        }
    }

    /** A refused state change (origin, CSRF): answered 403 with a readable page. */
    public static final class Forbidden extends RuntimeException {
        Forbidden(String message) {
            super(message, null, false, false);
        }
    }
}
