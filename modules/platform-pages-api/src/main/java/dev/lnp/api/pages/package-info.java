/**
 * Pages a plugin contributes to the application people work in: lists with filters, sort and pagination, detail
 * pages, forms checked against the same JSON Schema as the API, boards, a module's home of charts
 * ({@link dev.lnp.api.pages.DashboardView}), and regions that refresh themselves when
 * the workspace's events say something changed.
 *
 * <p>A plugin declares {@link dev.lnp.api.pages.PageRoute}s through the page side of its registrar,
 * {@link dev.lnp.api.pages.PageRegistrar#of}, in {@code register}; a route's renderer answers a
 * {@link dev.lnp.api.pages.PageView} (a value: what to show, never HTML) and an action answers a
 * {@link dev.lnp.api.pages.PageOutcome}. The web layer does the rest the same way for every plugin: the signed-in
 * session, the role's scopes, CSRF, the workspace transaction, the shell and navigation, the HTML (accessible, usable
 * without JavaScript, enhanced with it), and the error pages.
 */
package dev.lnp.api.pages;
