package dev.lnp.plugins.chatbot;

import java.util.UUID;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Handle;

/**
 * The e-mail address a visitor leaves outside office hours. Only stored and shown to the team, never mailed by the
 * platform, so the check is for typing mistakes (one {@code @}, a dot in the domain, no spaces or line breaks),
 * not a full address grammar.
 */
final class VisitorEmail {

    private static final Pattern PLAUSIBLE = Pattern.compile("^[^@\\s<>,;\"]{1,64}@[^@\\s<>,;\"]+\\.[^@\\s<>,;\".]{2,}$");

    private VisitorEmail() {
    }

    static boolean plausible(String email) {
        return email.length() <= 254 && PLAUSIBLE.matcher(email).matches();
    }

    static void store(Handle h, UUID workspaceId, UUID sessionId, String email) {
        h.createUpdate("UPDATE chatbot.sessions SET visitor_email = :email WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", sessionId).bind("email", email).execute();
    }
}
