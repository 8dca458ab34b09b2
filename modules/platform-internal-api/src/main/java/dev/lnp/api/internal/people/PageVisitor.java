package dev.lnp.api.internal.people;

import dev.lnp.api.http.RawResponse;
import java.util.List;
import java.util.Optional;

/**
 * One request to a plugin's page, as {@link PeoplePages#visitor} sees it. The answers it builds carry the console's
 * security headers (strict CSP: no inline script or style, {@code Cache-Control: no-store}, no framing) and any
 * cookie this browser needs.
 */
public interface PageVisitor {

    /** The name of the hidden form field that carries the CSRF token. */
    String CSRF_FIELD = "csrf";

    /** Whoever is signed in to the console in this browser, if anyone. */
    Optional<SignedInPerson> person();

    /** Whether the person signed in is {@code email} (ignoring case). */
    default boolean isSignedInAs(String email) {
        return person().map(p -> p.is(email)).orElse(false);
    }

    /**
     * The CSRF token for a form on this page: the session's when signed in, else one bound to this browser (its
     * cookie is set by the answer this visitor builds).
     */
    String csrfToken();

    /** {@code <input type="hidden" name="csrf" value="…">} for the page's forms. */
    default String csrfField() {
        return "<input type=\"hidden\" name=\"" + CSRF_FIELD + "\" value=\"" + Html.escape(csrfToken()) + "\">";
    }

    /** A value of the posted form ({@code application/x-www-form-urlencoded}, at most 64 KiB), if sent. */
    Optional<String> form(String name);

    /** Every value of a posted form field, in order. */
    List<String> formValues(String name);

    /**
     * Checks a POST: the form must be URL-encoded, sent from the deployment's own origin ({@code Origin}, else
     * {@code Referer}) and carry this browser's CSRF token. Empty when it passes; otherwise the readable 403 (or 400)
     * page to answer with, which says what to do.
     */
    Optional<RawResponse> checkForm();

    /**
     * Sends a one-time sign-in link to {@code email} (even an address with no account in any workspace yet) and
     * answers the "check your e-mail" page. The link works once, only in this browser, for the console's link
     * lifetime; opening it shows a button, the POST signs in (ending any other session of this browser) and goes
     * to {@code returnTo}. The console's sign-in throttles (per address and per client address) apply: past them
     * the answer is a 429 page.
     *
     * @param returnTo a local path of this deployment starting with a single {@code /} (query allowed), e.g.
     *                 {@code /api/agent-trials/approve?trial=…}; anything else (another host, {@code //host},
     *                 a backslash, control characters) is refused with a 400 page and no mail is sent
     */
    RawResponse startSignIn(String email, String returnTo);

    /**
     * A whole page in the console's look: layout, stylesheet, who is signed in. {@code bodyHtml} is inserted as
     * is: build it with {@link Html#escape} around every value. The console's stylesheet classes ({@code card},
     * {@code button}, {@code danger}, {@code lead}, {@code muted}, {@code error}) are available; inline styles and
     * scripts are blocked by the CSP.
     */
    RawResponse page(int status, String title, String bodyHtml);

    /** A page with a heading and a sentence (escaped here), e.g. for a refusal or a result. */
    RawResponse notice(int status, String heading, String text);
}
