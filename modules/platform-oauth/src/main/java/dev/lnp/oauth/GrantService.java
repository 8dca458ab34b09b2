package dev.lnp.oauth;

import dev.lnp.api.internal.keys.ConnectionAdmin;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * What a grant becomes in the kernel: an external connection delegated to the person who consented, with the
 * scopes they allowed (and, when they narrowed the tools, an allow list), whose key no one ever sees: its hash is
 * what the grant's access tokens stand for. So every rule of keys applies to a token as it stands (the person's
 * role caps the scopes, rate limits, budgets, the tool-call audit under the connection's name), and revoking the
 * grant revokes the connection: the next request is refused on every node.
 */
final class GrantService {

    /** The tokens a client receives. */
    record Issued(String accessToken, String refreshToken, long expiresInSeconds, Grants.Grant grant,
            java.util.List<String> scopes) {
    }

    private final Grants grants;
    private final ConnectionAdmin connections;
    private final OAuthSettings settings;
    private final Clock clock;

    GrantService(Grants grants, ConnectionAdmin connections, OAuthSettings settings, Clock clock) {
        this.grants = grants;
        this.connections = connections;
        this.settings = settings;
        this.clock = clock;
    }

    Grants grants() {
        return grants;
    }

    /**
     * Creates the grant's connection when its code is exchanged, then its first tokens. Empty when the grant was
     * revoked meanwhile.
     */
    Optional<Issued> activate(Grants.Grant grant) {
        Instant now = clock.instant();
        // Unique among the workspace's active connections, and telling in the connection list and the tool audit.
        String name = "MCP client " + grant.clientName() + " for " + grant.email() + " ("
                + grant.id().toString().substring(0, 8) + ")";
        if (name.length() > 200) {
            name = name.substring(0, 188) + "… (" + grant.id().toString().substring(0, 8) + ")";
        }
        ConnectionAdmin.Issued issued = connections.createUniquelyNamed(new ConnectionAdmin.NewConnection(
                grant.workspaceId(), name, grant.scopes(), null, null, grant.userId()));
        if (grant.tools() != null) {
            connections.setToolPolicy(issued.connectionId(), grant.tools(), java.util.List.of(), false);
        }
        if (!grants.activate(grant.id(), issued.connectionId(), Secrets.sha256(issued.key()), now)) {
            connections.revoke(issued.connectionId());
            return Optional.empty();
        }
        return Optional.of(tokens(grant, grant.scopes()));
    }

    /**
     * A new pair of tokens for a live grant, the access token for {@code scopes} (the grant's, or a subset a refresh
     * asked for); the refresh token keeps the grant's.
     */
    Issued tokens(Grants.Grant grant, java.util.List<String> scopes) {
        Instant now = clock.instant();
        String access = Secrets.random(Secrets.ACCESS_PREFIX);
        String refresh = Secrets.random(Secrets.REFRESH_PREFIX);
        boolean limited = !scopes.containsAll(grant.scopes());
        grants.issue(grant.id(), access, now.plus(settings.accessTtl()), limited ? scopes : null, refresh,
                now.plus(settings.refreshTtl()));
        return new Issued(access, refresh, settings.accessTtl().toSeconds(), grant, scopes);
    }

    /** Revokes the grant and its connection; nothing when it was revoked already. */
    void revoke(UUID grantId, String reason) {
        grants.revoke(grantId, reason, clock.instant()).ifPresent(connections::revoke);
    }
}
