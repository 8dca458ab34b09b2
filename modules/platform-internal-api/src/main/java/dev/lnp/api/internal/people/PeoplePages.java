package dev.lnp.api.internal.people;

import dev.lnp.api.http.RawRequest;

/**
 * Pages for people on a plugin's own raw routes (e.g. a public {@code GET/POST /api/agent-trials/approve}): who is
 * signed in to the console in this browser, sign-in by e-mailed link for a given address that comes back to the
 * page, CSRF tokens for the page's forms, and whole pages in the console's look. Offered by the platform through
 * {@code context.service(PeoplePages.class)}.
 *
 * <pre>{@code
 * r.route(RouteSpec.get("/api/agent-trials/approve").publicRoute().raw(req -> {
 *     PageVisitor v = pages.visitor(req);
 *     if (!v.isSignedInAs(trial.email())) {
 *         return v.page(200, "Approve the trial", "<form method=post>" + v.csrfField() + … + "</form>");
 *     }
 *     …
 * }));
 * }</pre>
 *
 * <p>The console's cookies are sent to every path of the deployment ({@code Path=/}), HttpOnly and
 * {@code SameSite=Lax}; the API itself never reads them (it authenticates by key only), so they authorise nothing
 * outside the console and the pages built with this service.
 */
public interface PeoplePages {

    /** The person (or anonymous browser) behind a request to a raw route. */
    PageVisitor visitor(RawRequest request);
}
