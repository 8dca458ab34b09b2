package dev.lnp.web.console;

import dev.lnp.api.internal.console.ConsoleAuthorization.Permission;
import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.Ids;
import java.util.List;

/** Members and invitations: list, invite by e-mail, change role, remove, transfer ownership. */
final class MemberPages {

    private final Console console;

    MemberPages(Console console) {
        this.console = console;
    }

    void list(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.VIEW_MEMBERS);
        render(x, session, 200, List.of(), x.query("done"));
    }

    void invite(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_MEMBERS);
        x.checkPost(session.csrfToken());
        change(x, session, () -> console.members().invite(session, x.form("email"), x.form("role"),
                console.invitationOf(session)), "invited");
    }

    /** A new link for a member who has not signed in yet; their earlier invitation links stop working. */
    void resendInvitation(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_MEMBERS);
        x.checkPost(session.csrfToken());
        change(x, session, () -> console.members().resendInvitation(session, Ids.parse(x.pathParam("id")),
                console.invitationOf(session)), "resent");
    }

    void changeRole(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_MEMBERS);
        x.checkPost(session.csrfToken());
        change(x, session, () -> console.members().changeRole(session, Ids.parse(x.pathParam("id")), x.form("role")),
                "role-changed");
    }

    void remove(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_MEMBERS);
        x.checkPost(session.csrfToken());
        change(x, session, () -> console.members().remove(session, Ids.parse(x.pathParam("id"))), "removed");
    }

    /** The owner's own privileges drop to admin: their session gets a new id as well. */
    void transfer(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.TRANSFER_OWNERSHIP);
        x.checkPost(session.csrfToken());
        try {
            console.members().transferOwnership(session, Ids.parse(x.pathParam("id")));
        } catch (Members.Refused refused) {
            render(x, session, refused.status(), List.of(refused.getMessage()), null);
            return;
        }
        var renewed = console.sessions().renew(session, session.userId(), x.userAgent(), x.clientIp());
        x.startSession(renewed.token());
        x.redirect("/console/members?done=transferred");
    }

    private void change(ConsoleExchange x, ConsoleSession session, Runnable action, String done) {
        try {
            action.run();
        } catch (Members.Refused refused) {
            render(x, session, refused.status(), List.of(refused.getMessage()), null);
            return;
        }
        x.redirect("/console/members?done=" + done);
    }

    private void render(ConsoleExchange x, ConsoleSession session, int status, List<String> errors,
            String done) {
        String notice = done == null ? null : switch (done) {
            case "invited" -> "The invitation is on its way. Its delivery shows next to the address until they sign in.";
            case "resent" -> "A new invitation is on its way; the earlier links no longer work.";
            case "role-changed" -> "The role was changed. That member's open sessions ended.";
            case "removed" -> "The member was removed.";
            case "transferred" -> "Ownership was transferred. You are now an admin of this workspace.";
            default -> null;
        };
        x.render(status, "members.jte", new Views.MembersPage(console.chrome(x, "Members", "/console/members"),
                console.members().list(session.workspaceId()),
                ConsoleAuthorization.allows(session, Permission.MANAGE_MEMBERS),
                ConsoleAuthorization.allows(session, Permission.TRANSFER_OWNERSHIP),
                session.userId().toString(), errors, notice));
    }

}
