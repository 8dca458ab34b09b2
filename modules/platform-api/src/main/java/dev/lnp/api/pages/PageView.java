package dev.lnp.api.pages;

/** What a view shows: a list, one record, a form or a board. The web layer turns it into the page's HTML. */
public sealed interface PageView permits ListView, DetailView, FormView, BoardView {

    /** The page's heading and the document's title. */
    String title();
}
