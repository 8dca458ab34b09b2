package dev.lnp.oauth;

import dev.lnp.api.internal.keys.DelegatedTokens;
import java.time.Clock;
import java.util.Optional;

/**
 * The kernel's view of this server's access tokens: on the MCP endpoint (the one resource tokens are issued for), a
 * live access token of a live grant stands for the grant's connection key; anywhere else, and for anything else, it
 * stands for nothing (401). The audience check is the resource the grant was issued for against the resource of
 * the request: a token of another deployment address, or another resource, is not accepted.
 */
final class McpAccessTokens implements DelegatedTokens {

    private final Grants grants;
    private final OAuthSettings settings;
    private final Clock clock;

    McpAccessTokens(Grants grants, OAuthSettings settings, Clock clock) {
        this.grants = grants;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public Optional<byte[]> keyHash(String token, String path) {
        return delegation(token, path).map(Delegation::keyHash);
    }

    @Override
    public Optional<Delegation> delegation(String token, String path) {
        if (!token.startsWith(Secrets.ACCESS_PREFIX) || token.length() > 100 || !OAuthSettings.onResource(path)) {
            return Optional.empty();
        }
        return grants.delegationOf(token, settings.resource(), clock.instant());
    }

    @Override
    public Optional<String> resourceMetadata(String path) {
        return OAuthSettings.onResource(path) ? Optional.of(settings.resourceMetadataUrl()) : Optional.empty();
    }
}
