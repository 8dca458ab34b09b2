package dev.lnp.web.console;

import dev.lnp.api.internal.mail.TransactionalMailer;
import dev.lnp.api.mail.OutgoingMail;
import java.lang.System.Logger.Level;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Invitation links: one-time sign-in links into one workspace, sent to the invited person (so not bound to a
 * browser) and valid longer than a sign-in link. Also what {@code platform workspace create} prints for the owner.
 */
public final class Invitations {

    private static final System.Logger LOG = System.getLogger(Invitations.class.getName());

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
        return url(token);
    }

    private String url(String token) {
        return settings.link("/console/sign-in/link?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
    }

    /**
     * The invitation of {@code member} as a writer for {@link Members}: a new link and its mail (rendered from
     * the console's mail templates) through the member's transaction, so both exist only if the member does.
     * When the mail cannot be queued it throws {@link Members.Refused}: 400 naming the e-mail when the mail
     * service refuses the address, 503 otherwise (logged); the transaction then rolls back.
     */
    public Members.InvitationWriter writer(TransactionalMailer mailer, ConsoleTemplates templates, UUID workspaceId,
            String workspaceName, String inviter) {
        return (Handle h, Members.Member member) -> {
            try {
                String token = links.issue(h, member.email(), null, SignInLinks.Purpose.INVITATION, workspaceId,
                        settings.invitationLifetime(), null);
                var model = new Views.LinkMail(url(token), settings.invitationLifetime().toDays() + " days",
                        inviter + " invited you to the workspace " + workspaceName + ".", "Accept the invitation");
                mailer.send(h, new OutgoingMail(workspaceId, member.email(), "You are invited to " + workspaceName,
                        templates.renderText("signin.jte", model), templates.render("mail/link.jte", model),
                        "invitation"));
            } catch (IllegalArgumentException e) {
                throw new Members.Refused(400, "E-mail: the platform cannot send mail to " + member.email() + " ("
                        + e.getMessage() + "). Nobody was invited.");
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "The invitation mail could not be queued, so nobody was invited: "
                        + FailureText.of(e));
                throw new Members.Refused(503, "The invitation could not be sent, so nobody was invited. The failure "
                        + "was logged for the operator; try again later.");
            }
        };
    }
}
