package dev.lnp.api.http;

/** A route's handler. It runs after authentication, scope check, limits and validation have passed. */
@FunctionalInterface
public interface Handler {
    ApiResponse handle(ApiRequest request) throws Exception;
}
