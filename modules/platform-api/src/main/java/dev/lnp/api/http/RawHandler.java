package dev.lnp.api.http;

/**
 * The handler of a raw route. An {@link ApiProblem} it throws is still answered as problem+json, so
 * authentication-like failures keep one shape on every surface.
 */
@FunctionalInterface
public interface RawHandler {
    RawResponse handle(RawRequest request) throws Exception;
}
