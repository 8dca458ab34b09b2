package dev.lnp.web.console;

import dev.lnp.api.internal.console.ConsoleAuthorization.Permission;
import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.console.Ids;
import java.util.UUID;

/** The console's start, the person's own sessions, and the workspace's activity list. */
final class AccountPages {

    private final Console console;

    AccountPages(Console console) {
        this.console = console;
    }

    void home(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        x.redirect(ConsoleAuthorization.allows(session, Permission.VIEW_CONNECTIONS)
                ? "/console/connections" : "/console/sessions");
    }

    void sessions(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.OWN_SESSIONS);
        x.render(200, "sessions.jte", new Views.SessionsPage(console.chrome(x, "Your sessions", "/console/sessions"),
                console.sessions().listOwn(session.email(), session.id())));
    }

    void endSession(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.OWN_SESSIONS);
        x.checkPost(session.csrfToken());
        UUID id = Ids.parse(x.pathParam("id"));
        if (id == null || !console.sessions().endOwn(session.email(), id)) {
            x.render(404, "notice.jte", console.notice(x, "No such session",
                    "You have no open session with that id.", "/console/sessions", "Your sessions"));
            return;
        }
        if (id.equals(session.id())) {
            x.endSessionCookie();
            x.redirect("/console/sign-in");
            return;
        }
        x.redirect("/console/sessions");
    }

    void activity(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.VIEW_ACTIVITY);
        x.render(200, "activity.jte", new Views.ActivityPage(console.chrome(x, "Activity", "/console/activity"),
                console.activity().recent(session.workspaceId(), 200)));
    }
}
