package dev.lnp.plugins.trials;

import dev.lnp.plugins.trials.TrialRepository.NewRequest;
import dev.lnp.plugins.trials.TrialRepository.TrialRequest;

/** The texts of the trial mails. Everything the agent wrote is shown as text (and escaped in HTML). */
final class TrialMails {

    private TrialMails() {
    }

    static String requestText(NewRequest r, String link) {
        return """
                An AI agent asks for a trial workspace that you would own.

                Agent:     %s (%s), version %s
                Purpose:   %s
                Workspace: %s
                Code:      %s   (the agent was given the same code; check it matches)

                If you approve, a new, separate workspace is created with sample data (contacts, deals, projects,
                tasks, tickets), owned by you, and the agent receives one key that works on the MCP endpoint only,
                for 7 days and at most 250 tool calls. You can revoke it at any time from the same page.

                Review and approve or deny (you decide on the page; opening it changes nothing):
                %s

                The link works for 24 hours. If you did not expect this, ignore this message: nothing happens
                without your approval.
                """.formatted(oneLine(r.agentName()), oneLine(r.agentVendor()), oneLine(r.agentVersion()),
                oneLine(r.purpose()), oneLine(r.workspaceName()), r.bindingCode(), link);
    }

    static String requestHtml(NewRequest r, String link) {
        return "<p>An AI agent asks for a trial workspace that you would own.</p>"
                + "<table><tr><th align=\"left\">Agent</th><td>" + ApprovalPage.esc(r.agentName()) + " ("
                + ApprovalPage.esc(r.agentVendor()) + "), version " + ApprovalPage.esc(r.agentVersion()) + "</td></tr>"
                + "<tr><th align=\"left\">Purpose</th><td>" + ApprovalPage.esc(r.purpose()) + "</td></tr>"
                + "<tr><th align=\"left\">Workspace</th><td>" + ApprovalPage.esc(r.workspaceName()) + "</td></tr>"
                + "<tr><th align=\"left\">Code</th><td><strong>" + ApprovalPage.esc(r.bindingCode())
                + "</strong> (the agent was given the same code)</td></tr></table>"
                + "<p>Approving creates a separate workspace with sample data, owned by you, and gives the agent one "
                + "key for the MCP endpoint only, for 7 days and at most 250 tool calls.</p>"
                + "<p><a href=\"" + ApprovalPage.esc(link) + "\">Review the request</a> (opening it changes "
                + "nothing). The link works for 24 hours.</p>";
    }

    static String approvedText(TrialRequest r) {
        return """
                You approved the agent trial of %s (%s).

                Workspace: %s (id %s)
                The agent receives its key on its next status request. The key works on MCP only, for 7 days from
                then and at most 250 tool calls. To end the trial early, open the approval link again and revoke it.
                """.formatted(oneLine(r.agentName()), oneLine(r.agentVendor()), oneLine(r.workspaceName()),
                r.trialWorkspaceId());
    }

    private static String oneLine(String s) {
        return TrialService.oneLine(s);
    }
}
