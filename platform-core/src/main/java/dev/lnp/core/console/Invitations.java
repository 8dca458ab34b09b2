package dev.lnp.core.console;

import dev.lnp.api.mail.Mailer;
import dev.lnp.api.mail.OutgoingMail;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Invitation links: one-time sign-in links into one workspace, sent to the invited person (so not bound to a
 * browser) and valid longer than a sign-in link. Also what {@code platform workspace create} prints for the owner.
 */
public final class Invitations {

    private final SignInLinks links;
    private final ConsoleSettings settings;

    public Invitations(SignInLinks links, ConsoleSettings settings) {
        this.links = links;
        this.settings = settings;
    }

    /** A new one-time link that signs {@code email} in to {@code workspaceId}. */
    public String link(UUID workspaceId, String email) {
        String token = links.issue(email, null, SignInLinks.Purpose.INVITATION, workspaceId,
                settings.invitationLifetime());
        return settings.link("/console/sign-in/link?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
    }

    /** Sends the invitation through the platform's mail service (rendered from the console's mail templates). */
    public void send(Mailer mailer, ConsoleTemplates templates, UUID workspaceId, String workspaceName,
            String inviter, String email) {
        var model = new Views.LinkMail(link(workspaceId, email), settings.invitationLifetime().toDays() + " days",
                inviter + " invited you to the workspace " + workspaceName + ".", "Accept the invitation");
        mailer.send(new OutgoingMail(workspaceId, email, "You are invited to " + workspaceName,
                templates.renderText("signin.jte", model), templates.render("mail/link.jte", model), "invitation"));
    }
}
