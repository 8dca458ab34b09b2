package dev.lnp.plugins.trials;

import dev.lnp.api.http.RawResponse;
import dev.lnp.plugins.trials.TrialRepository.TrialRequest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The owner's approval page: server-rendered, no script, one stylesheet from this plugin, a strict CSP, and
 * forms protected by a CSRF token that must match a SameSite=Strict cookie.
 */
final class ApprovalPage {

    static final String CSS_PATH = "/api/agent-trials/approve.css";
    static final String CSP = "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; "
            + "base-uri 'none'";

    private ApprovalPage() {
    }

    static RawResponse request(TrialRequest r, String secret, String csrf, String notice) {
        StringBuilder body = new StringBuilder();
        body.append("<h1>Agent trial request</h1>");
        if (notice != null) {
            body.append("<p role=\"status\">").append(esc(notice)).append("</p>");
        }
        body.append("<p>State: <span class=\"state\">").append(esc(r.state())).append("</span></p>");
        body.append("<dl>")
                .append(row("Agent", r.agentName() + " (" + r.agentVendor() + "), version " + r.agentVersion()))
                .append(row("Purpose", r.purpose()))
                .append(row("Workspace to create", r.workspaceName()))
                .append(row("Owner", r.ownerEmail()))
                .append("<dt>Code</dt><dd><span class=\"code\">").append(esc(r.bindingCode()))
                .append("</span> — the agent shows the same code; deny if it does not match.</dd>")
                .append(row("Requested", r.createdAt().toString()))
                .append("</dl>");
        switch (r.state()) {
            case "pending" -> {
                body.append("<p>Approving creates a <strong>separate workspace</strong> owned by you, with sample "
                        + "contacts, deals, projects, tasks and tickets, and gives the agent <strong>one key</strong> "
                        + "that works on the MCP endpoint only, for 7 days and at most 250 tool calls. You can revoke "
                        + "it here at any time. Decide before ").append(esc(r.expiresAt().toString()))
                        .append(".</p>");
                body.append(form(r, secret, csrf, "approve", "Approve trial"))
                        .append(form(r, secret, csrf, "deny", "Deny"));
            }
            case "approved" -> {
                body.append("<p>Approved. Workspace id ").append(esc(String.valueOf(r.trialWorkspaceId())))
                        .append(". ");
                body.append(r.keyDeliveredAt() == null ? "The agent receives its key on its next status request."
                        : "The agent collected its key; it works until " + esc(String.valueOf(r.keyExpiresAt()))
                                + ".");
                body.append("</p>").append(form(r, secret, csrf, "revoke", "Revoke trial now"));
            }
            default -> body.append("<p>This request is ").append(esc(r.state())).append(r.reason() == null ? ""
                    : " (" + esc(r.reason().replace('_', ' ')) + ")").append(". Nothing more can be done here.</p>");
        }
        return page(200, "Agent trial request", body.toString(), csrf);
    }

    static RawResponse message(int status, String title, String text) {
        return page(status, title, "<h1>" + esc(title) + "</h1><p>" + esc(text) + "</p>", null);
    }

    private static String form(TrialRequest r, String secret, String csrf, String decision, String label) {
        return "<form method=\"post\" action=\"" + TrialRoutes.APPROVE + "\">"
                + "<input type=\"hidden\" name=\"request\" value=\"" + esc(r.id().toString()) + "\">"
                + "<input type=\"hidden\" name=\"key\" value=\"" + esc(secret) + "\">"
                + "<input type=\"hidden\" name=\"csrf\" value=\"" + esc(csrf) + "\">"
                + "<button type=\"submit\" name=\"decision\" value=\"" + decision + "\" class=\"" + decision + "\">"
                + esc(label) + "</button></form>";
    }

    private static String row(String term, String value) {
        return "<dt>" + esc(term) + "</dt><dd>" + esc(value) + "</dd>";
    }

    private static RawResponse page(int status, String title, String body, String csrf) {
        String html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<meta name=\"referrer\" content=\"no-referrer\">"
                + "<title>" + esc(title) + "</title><link rel=\"stylesheet\" href=\"" + CSS_PATH + "\"></head>"
                + "<body><main>" + body + "</main></body></html>";
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Security-Policy", CSP);
        headers.put("Cache-Control", "no-store");
        headers.put("Referrer-Policy", "no-referrer");
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("X-Frame-Options", "DENY");
        if (csrf != null) {
            headers.put("Set-Cookie", TrialRoutes.CSRF_COOKIE + "=" + csrf + "; Path=" + TrialRoutes.APPROVE
                    + "; HttpOnly; SameSite=Strict");
        }
        return new RawResponse(status, headers, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
