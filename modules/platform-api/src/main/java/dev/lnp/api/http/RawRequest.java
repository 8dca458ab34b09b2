package dev.lnp.api.http;

import java.util.List;
import java.util.Optional;

/**
 * A request to a route that speaks its own protocol over HTTP (e.g. MCP's JSON-RPC): the caller is
 * authenticated, the scope, limits and body size are checked, but the body is handed over unparsed and no
 * transaction is open.
 */
public interface RawRequest extends RequestContext {

    /** Every value of a header (case-insensitive name), in order. */
    List<String> headers(String name);

    default Optional<String> header(String name) {
        List<String> values = headers(name);
        return values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** The first value of query parameter {@code name} (decoded), if present. */
    Optional<String> query(String name);

    /** The request's path as sent, without the query (e.g. {@code /api/agent-trials/approve}). */
    String path();

    /** The body as sent, at most the platform's body limit; empty when there is none. */
    byte[] body();
}
