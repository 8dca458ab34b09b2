package dev.lnp.api.internal.keys;

import java.util.Optional;
import java.util.Set;

/**
 * Bearer values that are not platform keys but stand for one: the access tokens an authorization server of the
 * platform issued to a client a person connected (OAuth 2.1, for the MCP endpoint). The kernel asks this service,
 * when one is offered, about a bearer value that does not have a key's shape, and then admits the request exactly as
 * it would the key the token stands for: its connection, scopes, delegated person, rate limit, budget, audit and
 * revocation. A token is bound to the resource it was issued for, so it is looked up together with the request's
 * path.
 */
public interface DelegatedTokens {

    /**
     * The SHA-256 of the platform key (of its UTF-8 text, as the kernel stores keys) that {@code token} stands for on
     * {@code path}; empty when the token is unknown, expired, revoked, or was issued for another resource than the
     * one {@code path} belongs to.
     */
    Optional<byte[]> keyHash(String token, String path);

    /**
     * What {@code token} stands for on {@code path}: the key's hash, and the scopes the token is limited to when it
     * was issued for fewer than its key's (a refresh that asked for a subset, RFC 6749 §6); the request then has
     * only the scopes in both. Empty as {@link #keyHash}.
     */
    default Optional<Delegation> delegation(String token, String path) {
        return keyHash(token, path).map(hash -> new Delegation(hash, Optional.empty()));
    }

    /** A key's hash, and the scopes a token of it is limited to (empty: the key's own). */
    record Delegation(byte[] keyHash, Optional<Set<String>> scopeLimit) {
    }

    /**
     * The URL of the Protected Resource Metadata (RFC 9728) of the resource {@code path} belongs to, which a 401 or
     * 403 on that path names in its {@code WWW-Authenticate} challenge ({@code resource_metadata}); empty for a path
     * that no token is issued for.
     */
    Optional<String> resourceMetadata(String path);
}
