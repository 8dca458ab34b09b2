package dev.lnp.plugins.chatbot;

import dev.lnp.api.mail.Mailer;
import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.api.workspace.WorkspaceTx;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Who is on duty for the chat, and the mail each of them gets when a visitor is handed over to a person. The mail
 * goes through the platform's {@link Mailer} in the hand-off's own transaction, so it is sent exactly when the
 * hand-off is recorded. Nobody on duty means no mail: the inbox still shows the hand-off.
 */
final class DutyRoster {

    static final String MAIL_KIND = "chatbot-handoff";

    record OnDuty(UUID userId, String email) {}

    private final Supplier<Mailer> mailer;
    private final Supplier<String> baseUrl;

    DutyRoster(Supplier<Mailer> mailer, Supplier<String> baseUrl) {
        this.mailer = mailer;
        this.baseUrl = baseUrl;
    }

    boolean onDuty(WorkspaceTx tx, UUID userId) {
        return tx.handle().createQuery("SELECT count(*) FROM chatbot.on_duty WHERE workspace_id = :ws AND user_id = :user")
                .bind("ws", tx.workspaceId()).bind("user", userId).mapTo(Integer.class).one() > 0;
    }

    /** Puts the member on duty (remembering the address to mail) or takes them off; returns the new state. */
    boolean toggle(WorkspaceTx tx, UUID userId, String email) {
        int removed = tx.handle().createUpdate("DELETE FROM chatbot.on_duty WHERE workspace_id = :ws AND user_id = :user")
                .bind("ws", tx.workspaceId()).bind("user", userId).execute();
        if (removed > 0) {
            return false;
        }
        tx.handle().createUpdate("INSERT INTO chatbot.on_duty (workspace_id, user_id, email) VALUES (:ws, :user, :email)")
                .bind("ws", tx.workspaceId()).bind("user", userId).bind("email", email).execute();
        return true;
    }

    List<OnDuty> list(WorkspaceTx tx) {
        return tx.handle().createQuery("SELECT user_id, email FROM chatbot.on_duty WHERE workspace_id = :ws "
                        + "ORDER BY since, user_id")
                .bind("ws", tx.workspaceId())
                .map((rs, ctx) -> new OnDuty(rs.getObject("user_id", UUID.class), rs.getString("email"))).list();
    }

    /**
     * One mail to each member on duty who is still a member of the workspace; a former member is taken off duty
     * instead. Returns how many mails were queued.
     */
    int mailHandoff(WorkspaceTx tx, UUID sessionId, String widgetName, String reason) {
        int sent = 0;
        String subject = "Chat: a visitor asks for a person: " + oneLine(reason);
        String link = baseUrl.get() + InboxPages.INBOX + "/" + sessionId;
        String text = "A visitor of the chat \"" + widgetName + "\" asked to talk to a person.\n\n"
                + "Their reason: " + reason + "\n\n"
                + "Answer them in the chat inbox: " + link + "\n\n"
                + "You get this mail because you are on duty for the chat. Go off duty in the chat inbox to stop it.\n";
        for (OnDuty member : list(tx)) {
            if (!tx.isUser(member.userId())) {
                tx.handle().createUpdate("DELETE FROM chatbot.on_duty WHERE workspace_id = :ws AND user_id = :user")
                        .bind("ws", tx.workspaceId()).bind("user", member.userId()).execute();
                continue;
            }
            mailer.get().send(new OutgoingMail(tx.workspaceId(), member.email(), subject, text, null, MAIL_KIND));
            sent++;
        }
        return sent;
    }

    /** A subject is one line of bounded length: the reason is the visitor's words, possibly several lines. */
    private static String oneLine(String reason) {
        String s = (reason == null || reason.isBlank() ? "(no reason given)" : reason).replaceAll("[\\r\\n\\t]+", " ")
                .strip();
        return s.length() <= 120 ? s : s.substring(0, 119) + "…";
    }
}
