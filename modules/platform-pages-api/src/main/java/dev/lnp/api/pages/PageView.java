package dev.lnp.api.pages;

/**
 * What a view shows: a list, one record, a form, a board or a module's home of charts. The web layer turns it into
 * the page's HTML.
 */
public sealed interface PageView permits ListView, DetailView, FormView, BoardView, DashboardView {

    /** The page's heading and the document's title. */
    String title();
}
