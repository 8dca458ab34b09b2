package dev.lnp.web.console;

import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.SignInInvitations.Membership;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which of a person's workspaces a way of signing in opens. Without an OpenID Connect provider every membership,
 * as always. With one, an e-mailed sign-in link opens only the workspaces that still allow links, and a session
 * that began at the provider only the workspaces whose rules accept the address.
 */
final class SignInPolicy {

    private final People people;
    private final WorkspaceSignInStore rules;
    private final OidcSignIns oidc;
    private final boolean providerConfigured;

    SignInPolicy(People people, WorkspaceSignInStore rules, OidcSignIns oidc, boolean providerConfigured) {
        this.people = people;
        this.rules = rules;
        this.oidc = oidc;
        this.providerConfigured = providerConfigured;
    }

    /** The memberships an e-mailed sign-in link opens. */
    List<Membership> byLink(String email) {
        return byLink(people.memberships(email));
    }

    List<Membership> byLink(List<Membership> memberships) {
        if (!providerConfigured || memberships.isEmpty()) {
            return memberships;
        }
        var byWorkspace = rules.of(memberships.stream().map(Membership::workspaceId).collect(Collectors.toSet()));
        return memberships.stream().filter(m -> byWorkspace.get(m.workspaceId()).linksAllowed()).toList();
    }

    /** The memberships the session may switch to, by the way it began. */
    List<Membership> forSession(ConsoleSession session) {
        var memberships = people.memberships(session.email());
        if (!providerConfigured) {
            return memberships;
        }
        if (oidc.idToken(session.id()).isPresent()) {
            var byWorkspace = rules.of(memberships.stream().map(Membership::workspaceId).collect(Collectors.toSet()));
            return memberships.stream().filter(m -> byWorkspace.get(m.workspaceId()).allowsAddress(session.email()))
                    .toList();
        }
        return byLink(memberships);
    }
}
