package dev.lnp.api.http;

/** The validated {@code page} and {@code limit} of a paginated route. */
public record PageRequest(int page, int limit) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 100;
    /** The largest page a query string can name (an int); list tools bound {@code page} the same way. */
    public static final int MAX_PAGE = Integer.MAX_VALUE;

    public long offset() {
        return (long) (page - 1) * limit;
    }

    /**
     * This page's {@code LIMIT n OFFSET m}, the numbers written into the statement rather than bound. With both
     * bound, PostgreSQL planned a list statement anew on every run: its generic plan, not knowing how many rows
     * are wanted, always looked dearer than the custom one, and planning was about a third of an issues page's
     * time in the database. With the numbers in the text it keeps
     * one generic plan once that plan is as cheap. Two integers: nothing to escape.
     */
    public String limitClause() {
        return "LIMIT " + limit + " OFFSET " + offset();
    }
}
