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
}
