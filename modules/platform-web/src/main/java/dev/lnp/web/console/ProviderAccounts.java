package dev.lnp.web.console;

import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.SignInInvitations.Membership;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Who a person the OpenID Connect provider signed in is here: the users of the workspaces whose rules accept their
 * verified address, created on a first sign-in where a workspace asks for it, with the role their provider groups
 * give (applied at every sign-in; the owner's role never changes this way). A refusal says why, for the person.
 */
final class ProviderAccounts {

    sealed interface Admission permits Admitted, Refused {
    }

    /** The person's memberships this sign-in may use (one or more). */
    record Admitted(List<Membership> memberships) implements Admission {
    }

    record Refused(String heading, String text) implements Admission {
    }

    private final Jdbi jdbi;
    private final People people;
    private final WorkspaceSignInStore rules;
    private final ConsoleActivity activity;

    ProviderAccounts(Jdbi jdbi, People people, WorkspaceSignInStore rules, ConsoleActivity activity) {
        this.jdbi = jdbi;
        this.people = people;
        this.rules = rules;
        this.activity = activity;
    }

    Admission admit(OidcProvider.Identity identity, String providerName) {
        String email = identity.email();
        if (email == null || !email.matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+") || email.length() > 254) {
            return new Refused("No e-mail address", providerName + " did not tell this platform your e-mail address, "
                    + "which is how people are matched to their workspaces. Ask your administrator to release the "
                    + "email claim to this platform, or sign in with an e-mailed link.");
        }
        if (!identity.emailVerified()) {
            return new Refused("E-mail address not verified", providerName + " has not verified the address " + email
                    + ", so it cannot sign you in here. Verify the address there, or sign in with an e-mailed link.");
        }
        List<Membership> existing = people.memberships(email);
        Map<UUID, WorkspaceSignInRules> existingRules = rules.of(existing.stream().map(Membership::workspaceId)
                .collect(Collectors.toSet()));
        List<Membership> accepted = existing.stream()
                .filter(m -> existingRules.get(m.workspaceId()).allowsAddress(email)).toList();
        Set<UUID> member = existing.stream().map(Membership::workspaceId).collect(Collectors.toSet());
        List<WorkspaceSignInRules> creating = rules.creatingUsers().stream()
                .filter(r -> !member.contains(r.workspaceId()) && r.createsUserFor(email)).toList();
        if (accepted.isEmpty() && creating.isEmpty()) {
            String domain = WorkspaceSignInRules.domainOf(email);
            if (!existing.isEmpty() || rules.creatingUsers().stream().anyMatch(r -> !member.contains(r.workspaceId()))) {
                return new Refused("Addresses at " + domain + " cannot sign in here", "Sign-in with " + providerName
                        + " is not open to addresses at " + domain + " in any workspace of this platform you could "
                        + "use. Ask your workspace's owner to allow the domain, or sign in with an e-mailed link.");
            }
            return new Refused("No workspace", email + " is not a user of any workspace of this platform. Ask a "
                    + "workspace's owner or admin to invite you.");
        }
        List<UUID> admitted = new ArrayList<>();
        jdbi.useTransaction(h -> {
            for (Membership m : accepted) {
                applyGroups(h, m, existingRules.get(m.workspaceId()), identity, providerName);
                admitted.add(m.workspaceId());
            }
            for (WorkspaceSignInRules r : creating) {
                create(h, r, email, identity, providerName);
                admitted.add(r.workspaceId());
            }
        });
        return new Admitted(people.memberships(email).stream().filter(m -> admitted.contains(m.workspaceId())).toList());
    }

    /** The role the groups give, for a user other than the owner; their other sessions end when it changes. */
    private void applyGroups(Handle h, Membership m, WorkspaceSignInRules r, OidcProvider.Identity identity,
            String providerName) {
        if ("owner".equals(m.role())) {
            return;
        }
        String role = r.roleFor(identity.groups()).orElse(m.role());
        if (role.equals(m.role())) {
            return;
        }
        h.createUpdate("UPDATE lnp_core.users SET role = :role WHERE id = :id AND role <> 'owner'")
                .bind("role", role).bind("id", m.userId()).execute();
        h.createUpdate("""
                        UPDATE lnp_core.console_sessions SET revoked_at = now() WHERE user_id = :id AND revoked_at IS NULL
                        """).bind("id", m.userId()).execute();
        activity.record(h, actor(m.workspaceId(), m.userId(), identity.email()), "member.role_changed",
                identity.email(), m.role() + " → " + role + " (groups at " + providerName + ")");
    }

    private void create(Handle h, WorkspaceSignInRules r, String email, OidcProvider.Identity identity,
            String providerName) {
        String role = r.roleFor(identity.groups()).orElse(r.defaultRole());
        UUID userId = h.createQuery("""
                        INSERT INTO lnp_core.users (workspace_id, email, role) VALUES (:ws, :email, :role)
                        ON CONFLICT (workspace_id, email) DO NOTHING RETURNING id
                        """)
                .bind("ws", r.workspaceId()).bind("email", email).bind("role", role)
                .mapTo(UUID.class).findOne().orElse(null);
        if (userId != null) {
            activity.record(h, actor(r.workspaceId(), userId, email), "member.created_at_sign_in", email,
                    "as " + role + ", first sign-in with " + providerName);
        }
    }

    /** The person as the author of what their own sign-in changed, in the workspace's activity list. */
    private static ConsoleSession actor(UUID workspaceId, UUID userId, String email) {
        return new ConsoleSession(null, email, userId, workspaceId, null, null, null, Instant.now());
    }
}
