package dev.lnp.api.http;

import java.util.List;

/**
 * One page of a list and the exact number of rows matching it: what a repository's list query returns, shared by
 * the REST route (the {@code {data, pagination}} envelope) and the list tool (the same two fields as
 * {@code {items, pagination}}, {@code ToolResult.listed}; see {@code JsonSchemas.pageOutput}).
 *
 * @param items the rows of the page, as the API returns them (JSON objects or maps)
 */
public record Listing<T>(List<T> items, Page page) {

    public Listing {
        items = List.copyOf(items);
    }

    /** The page {@code request} asked for, of {@code total} matching rows. */
    public static <T> Listing<T> of(List<T> items, PageRequest request, long total) {
        return new Listing<>(items, Page.of(request, total));
    }

    /** The REST answer: the items as {@code data}, with the pagination object. */
    public ApiResponse response() {
        return ApiResponse.page(items, page);
    }
}
