package dev.lnp.api.http;

/** The pagination object of the v1 envelope. */
public record Page(int page, int limit, long total, boolean hasMore) {

    public static Page of(PageRequest request, long total) {
        return new Page(request.page(), request.limit(), total, (long) request.page() * request.limit() < total);
    }
}
