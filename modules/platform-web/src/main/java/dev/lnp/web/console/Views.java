package dev.lnp.web.console;

import dev.lnp.api.internal.console.Choice;
import dev.lnp.api.internal.console.Chrome;
import dev.lnp.api.internal.console.ConsoleTime;
import dev.lnp.api.internal.console.SignInInvitations;
import dev.lnp.api.internal.keys.ConnectionAdmin;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The models the console templates render: one record per page, each carrying the shared {@link Chrome}. */
public final class Views {

    private Views() {
    }

    /** A point in time as the pages show it; "never" when absent. */
    public static String time(Instant instant) {
        return ConsoleTime.format(instant);
    }

    /**
     * A key's true state: revoked, retired (its rotation grace period has ended), or active (until the end of a
     * grace period, when one is running). What the API does with the key, now.
     */
    public static String keyState(ConnectionAdmin.KeyInfo key) {
        String state = key.state(Instant.now());
        return state.equals("retiring") ? "active until " + time(key.validUntil()) + " (replaced)" : state;
    }

    /** A connection's state: revoked, expired (its expiry date has passed) or active. */
    public static String connectionState(ConnectionAdmin.Listed connection) {
        if (connection.revokedAt() != null) {
            return "revoked " + time(connection.revokedAt());
        }
        if (connection.expiresAt() != null && !connection.expiresAt().isAfter(Instant.now())) {
            return "expired";
        }
        return "active";
    }

    /** A plugin's page for people: its own HTML (escaped by the plugin) inside the console's layout. */
    public record PluginPage(Chrome chrome, String bodyHtml) {
    }

    public record Notice(Chrome chrome, String heading, String text, String linkHref, String linkLabel) {
    }

    /**
     * The confirmation step of a change that cannot be undone: a page whose form posts {@code action} again with
     * {@code confirm=yes} and the hidden {@code fields} (each a name as value, and its value as label).
     */
    public record ConfirmAction(Chrome chrome, String heading, String text, String action, List<Choice> fields,
            String submit, String cancelHref) {
    }

    /** @param providerName the OpenID Connect provider's label for its button, or null when there is none */
    public record SignIn(Chrome chrome, String csrf, String email, String error, String providerName) {
    }

    public record SignInRulesForm(String allowedDomains, boolean createUsers, String defaultRole, String groupRoles,
            boolean linksAllowed) {
    }

    public record SignInSettingsPage(Chrome chrome, String providerName, String groupsClaim, SignInRulesForm form,
            String error, String notice) {
    }

    public record ConfirmLink(Chrome chrome, String csrf, String token) {
    }

    public record ChooseWorkspace(Chrome chrome, List<SignInInvitations.Membership> memberships) {
    }

    /** The values of the create form, kept when it is shown again with errors. */
    public record ConnectionForm(String name, List<Choice> scopes, List<Choice> presets, String expiresOn,
            List<Choice> users, boolean delegation, String toolAllow, String toolDeny, boolean readOnlyTools) {
    }

    public record ConnectionsPage(Chrome chrome, List<ConnectionAdmin.Listed> connections, ConnectionForm form,
            List<String> errors, List<String> toolNames) {
    }

    public record KeyIssued(Chrome chrome, UUID connectionId, String connectionName, String key, String what) {
    }

    public record RequestRow(Instant at, String surface, String method, String route, int status, String latencyMs) {
    }

    public record ToolCallRow(Instant at, String tool, String outcome, String errorCode, String durationMs) {
    }

    public record ConnectionPage(Chrome chrome, ConnectionAdmin.Listed connection, String policy,
            List<RequestRow> requests, List<ToolCallRow> toolCalls, List<String> errors) {
        public boolean active() {
            return connection.revokedAt() == null;
        }
    }

    /** A mail carrying a one-time link (sign-in or invitation). */
    public record LinkMail(String link, String validFor, String intro, String action) {
    }

    public record MembersPage(Chrome chrome, List<Members.Member> members, boolean canManage, boolean canTransfer,
            String currentUserId, List<String> errors, String notice) {
    }

    public record Module(String id, boolean enabled, int routes, int tools, int events, List<String> scopes) {
    }

    public record ModulesPage(Chrome chrome, List<Module> modules) {
    }

    public record ConnectionLimit(String name, Integer restPerMinute, Integer mcpPerMinute) {
    }

    /** One monthly quota a plugin declared: this month's units used against the limit that applies. */
    public record QuotaUsage(String name, String plugin, long used, long limit, boolean setForWorkspace) {
        public int percent() {
            return limit == 0 ? 100 : (int) Math.min(100, used * 100 / limit);
        }
    }

    public record UsagePage(Chrome chrome, List<QuotaUsage> quotas, int restPerMinute, int mcpPerMinute,
            List<ConnectionLimit> connectionLimits) {
    }

    public record MailboxPage(Chrome chrome, List<dev.lnp.api.internal.mail.Mailbox.Summary> messages, boolean local,
            dev.lnp.api.internal.mail.Mailbox.Message shown) {
    }

    public record SessionsPage(Chrome chrome, List<ConsoleSessions.Listed> sessions) {
    }

    public record ActivityPage(Chrome chrome, List<ConsoleActivity.Entry> entries) {
    }

    /** The hits of one kind; empty when that kind was searched and nothing matched. */
    public record SearchGroup(String kind, List<dev.lnp.api.pages.SearchHit> hits) {
        public String headingId() {
            return "found-" + kind.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
        }
    }

    /**
     * The application's search: what was asked, every kind searched (in the modules' order) with its hits, or why
     * the text could not be searched ({@code error}).
     */
    public record SearchPage(Chrome chrome, String text, List<SearchGroup> groups, String error) {
        /** The search page of this text. */
        public String href() {
            return "/app/search?q=" + java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8);
        }

        public boolean found() {
            return groups.stream().anyMatch(g -> !g.hits().isEmpty());
        }

        /** The kinds searched, in words: "contacts, companies and deals". */
        public String searched() {
            List<String> kinds = groups.stream().map(g -> g.kind().toLowerCase(java.util.Locale.ROOT)).toList();
            if (kinds.size() < 2) return String.join("", kinds);
            return String.join(", ", kinds.subList(0, kinds.size() - 1)) + " and " + kinds.getLast();
        }
    }
}
