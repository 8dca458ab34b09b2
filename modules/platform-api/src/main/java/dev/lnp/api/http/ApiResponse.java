package dev.lnp.api.http;

/**
 * A handler's successful result. The platform writes it in the route's {@link ResponseShape}.
 *
 * @param pagination null for a page of {@link dev.lnp.api.sql.JsonRows#withTotal} rows: the platform takes it from
 *                   the rows once they are written
 * @param status overrides the route's success status when not 0
 */
public record ApiResponse(Object data, Page pagination, int status) {

    public static ApiResponse of(Object data) {
        return new ApiResponse(data, null, 0);
    }

    public static ApiResponse page(Object items, Page pagination) {
        return new ApiResponse(items, pagination, 0);
    }

    public static ApiResponse status(int status, Object data) {
        return new ApiResponse(data, null, status);
    }
}
