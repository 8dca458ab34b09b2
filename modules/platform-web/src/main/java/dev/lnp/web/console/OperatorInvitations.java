package dev.lnp.web.console;

import dev.lnp.api.internal.console.SignInInvitations;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/** The console's sign-in links for operator commands ({@link SignInInvitations}), without a running console. */
final class OperatorInvitations implements SignInInvitations {

    private final People people;
    private final Invitations invitations;
    private final ConsoleSettings settings;

    OperatorInvitations(Jdbi jdbi, ConsoleSettings settings) {
        this.people = new People(jdbi);
        this.invitations = new Invitations(new SignInLinks(jdbi), settings);
        this.settings = settings;
    }

    @Override
    public List<Membership> memberships(String email) {
        return people.memberships(email);
    }

    @Override
    public String link(UUID workspaceId, String email) {
        return invitations.link(workspaceId, email);
    }

    @Override
    public Duration lifetime() {
        return settings.invitationLifetime();
    }
}
