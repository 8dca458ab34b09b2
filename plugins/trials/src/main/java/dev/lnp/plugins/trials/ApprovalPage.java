package dev.lnp.plugins.trials;

import dev.lnp.api.http.RawResponse;
import dev.lnp.api.internal.people.Html;
import dev.lnp.api.internal.people.PageVisitor;
import dev.lnp.plugins.trials.TrialRepository.TrialRequest;

/**
 * The owner's approval page, rendered in the console's look by the platform's people pages (session, CSRF, strict
 * CSP, no script). The decision buttons appear only to a person signed in with the owner's address; anyone else
 * sees the request and a button that mails a sign-in link to the owner's address.
 */
final class ApprovalPage {

    private ApprovalPage() {
    }

    /** A time as the console shows times, e.g. {@code 2026-11-24 07:08 UTC}. */
    static String when(java.time.Instant instant) {
        return instant == null ? "—" : WHEN.format(instant);
    }

    private static final java.time.format.DateTimeFormatter WHEN = java.time.format.DateTimeFormatter
            .ofPattern("uuuu-MM-dd HH:mm 'UTC'", java.util.Locale.ROOT).withZone(java.time.ZoneOffset.UTC);

    static RawResponse request(PageVisitor visitor, TrialRequest r, String secret, String notice) {
        StringBuilder body = new StringBuilder("<h1>Agent trial request</h1>");
        if (notice != null) {
            body.append("<p role=\"status\" class=\"lead\">").append(esc(notice)).append("</p>");
        }
        body.append("<p>State: <strong class=\"state\">").append(esc(r.state())).append("</strong></p>");
        body.append("<dl class=\"card\">")
                .append(row("Agent", r.agentName() + " (" + r.agentVendor() + "), version " + r.agentVersion()))
                .append(row("Purpose", r.purpose()))
                .append(row("Workspace to create", r.workspaceName()))
                .append(row("Owner", r.ownerEmail()))
                .append("<dt>Code</dt><dd><strong class=\"code\">").append(esc(r.bindingCode()))
                .append("</strong> — the agent shows the same code; deny if it does not match.</dd>")
                .append(row("Requested", when(r.createdAt())))
                .append("</dl>");
        boolean owner = visitor.isSignedInAs(r.ownerEmail());
        if (!owner && ("pending".equals(r.state()) || "approved".equals(r.state()))) {
            String who = visitor.person().map(p -> "You are signed in as " + p.email() + ", not as the owner. ")
                    .orElse("");
            body.append("<p>").append(esc(who)).append("Only the owner, signed in with ").append(esc(r.ownerEmail()))
                    .append(", can decide. We mail a sign-in link to that address; it brings you back here.</p>")
                    .append(form(visitor, r, secret, "sign-in", "Send me a sign-in link", "button"));
            return visitor.page(200, "Agent trial request", body.toString());
        }
        switch (r.state()) {
            case "pending" -> {
                body.append("<p>Approving creates a <strong>separate workspace</strong> owned by you, with sample "
                        + "contacts, deals, projects, tasks and tickets, and gives the agent <strong>one key</strong> "
                        + "that works on the MCP endpoint only, for 7 days and at most 250 tool calls. You can revoke "
                        + "it here at any time. Decide before ").append(esc(when(r.expiresAt())))
                        .append(".</p>");
                body.append(form(visitor, r, secret, "approve", "Approve trial", "button approve"))
                        .append(form(visitor, r, secret, "deny", "Deny", "button danger deny"));
            }
            case "approved" -> {
                body.append("<p>Approved. Workspace id ").append(esc(String.valueOf(r.trialWorkspaceId())))
                        .append(". ");
                body.append(r.keyDeliveredAt() == null ? "The agent receives its key on its next status request."
                        : "The agent collected its key; it works until " + esc(when(r.keyExpiresAt()))
                                + ".");
                body.append("</p><p>The workspace is yours: <a href=\"/console/workspaces\">open it in the "
                        + "console</a> (section Agent trials).</p>").append(form(visitor, r, secret, "revoke", "Revoke trial now",
                        "button danger revoke"));
            }
            default -> body.append("<p>This request is ").append(esc(r.state())).append(r.reason() == null ? ""
                    : " (" + esc(r.reason().replace('_', ' ')) + ")").append(". Nothing more can be done here.</p>");
        }
        return visitor.page(200, "Agent trial request", body.toString());
    }

    private static String form(PageVisitor visitor, TrialRequest r, String secret, String decision, String label,
            String classes) {
        return "<form method=\"post\" action=\"" + TrialRoutes.APPROVE + "\">"
                + "<input type=\"hidden\" name=\"request\" value=\"" + esc(r.id().toString()) + "\">"
                + "<input type=\"hidden\" name=\"key\" value=\"" + esc(secret) + "\">"
                + visitor.csrfField()
                + "<button type=\"submit\" name=\"decision\" value=\"" + decision + "\" class=\"" + classes + "\">"
                + esc(label) + "</button></form>";
    }

    private static String row(String term, String value) {
        return "<dt>" + esc(term) + "</dt><dd>" + esc(value) + "</dd>";
    }

    static String esc(String s) {
        return s == null ? "" : Html.escape(s);
    }
}
