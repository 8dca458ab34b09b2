package dev.lnp.web.console;

import dev.lnp.api.internal.console.Choice;
import dev.lnp.api.internal.console.ConsoleAuthorization.Permission;
import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.Ids;
import dev.lnp.api.internal.keys.ConnectionAdmin;
import dev.lnp.api.internal.platform.PluginCatalog;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * API &amp; MCP → External Connections: list, create (key shown once), rotate with a grace period, revoke, and
 * a connection's activity. All changes go through {@link Connections}, the service the CLI's key commands use.
 */
final class ConnectionPages {

    private static final int MAX_GRACE_MINUTES = 7 * 24 * 60;

    private final Console console;

    ConnectionPages(Console console) {
        this.console = console;
    }

    void list(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.VIEW_CONNECTIONS);
        render(x, session, 200, emptyForm(session.workspaceId()), List.of());
    }

    void create(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_CONNECTIONS);
        x.checkPost(session.csrfToken());
        List<String> errors = new ArrayList<>();

        String name = value(x.form("name"));
        List<String> scopes = x.formValues("scopes").stream().filter(s -> !s.isBlank()).toList();
        String preset = value(x.form("preset"));
        String expiresOn = value(x.form("expires_on"));
        boolean delegation = "on".equals(x.form("delegation"));
        String delegatedUser = value(x.form("delegated_user"));
        String allowText = value(x.form("tool_allow"));
        String denyText = value(x.form("tool_deny"));
        boolean readOnlyTools = "on".equals(x.form("read_only_tools"));

        if (name.isEmpty() || name.length() > 200) {
            errors.add("Name: give the connection a name of 1 to 200 characters.");
        }
        if (preset.isEmpty() == scopes.isEmpty()) {
            errors.add("Access: choose either a preset or individual scopes, not both and not neither.");
        }
        java.time.Instant expiresAt = null;
        if (!expiresOn.isEmpty()) {
            try {
                LocalDate date = LocalDate.parse(expiresOn);
                expiresAt = date.atStartOfDay(ZoneOffset.UTC).toInstant();
                if (!date.isAfter(LocalDate.now(ZoneOffset.UTC))) {
                    errors.add("Expires on: choose a date after today.");
                }
            } catch (DateTimeParseException e) {
                errors.add("Expires on: write the date as YYYY-MM-DD.");
            }
        }
        UUID delegatedUserId = null;
        if (delegation) {
            delegatedUserId = Ids.parse(delegatedUser);
            UUID wanted = delegatedUserId;
            boolean member = wanted != null && console.connectionActivity().users(session.workspaceId()).stream()
                    .anyMatch(u -> u.id().equals(wanted));
            if (!member) {
                errors.add("Delegation: choose the user of this workspace the connection acts for.");
            }
        }
        List<String> allow = tools(allowText);
        List<String> deny = tools(denyText);
        Set<String> unknown = new TreeSet<>();
        if (allow != null) {
            unknown.addAll(allow);
        }
        if (deny != null) {
            unknown.addAll(deny);
        }
        unknown.removeAll(toolNames());
        if (!unknown.isEmpty()) {
            errors.add("MCP tools: unknown tool(s) " + String.join(", ", unknown) + ".");
        }
        var form = form(session.workspaceId(), name, scopes, preset, expiresOn, delegation, delegatedUser, allowText,
                denyText, readOnlyTools);
        if (!errors.isEmpty()) {
            render(x, session, 400, form, errors);
            return;
        }
        ConnectionAdmin.Issued issued;
        try {
            issued = console.connections().createUniquelyNamed(new ConnectionAdmin.NewConnection(session.workspaceId(),
                    name, preset.isEmpty() ? scopes : null, preset.isEmpty() ? null : preset, expiresAt,
                    delegatedUserId));
        } catch (ConnectionAdmin.DuplicateName e) {
            render(x, session, 409, form, List.of("Name: this workspace already has a connection named " + name
                    + ". Choose another name, or open that connection to rotate its key."));
            return;
        } catch (IllegalArgumentException e) {
            render(x, session, 400, form, List.of(e.getMessage()));
            return;
        }
        if (allow != null || (deny != null && !deny.isEmpty()) || readOnlyTools) {
            console.connections().setToolPolicy(issued.connectionId(), allow, deny == null ? List.of() : deny,
                    readOnlyTools);
        }
        console.activity().record(session, "connection.created", name + " (" + issued.connectionId() + ")",
                preset.isEmpty() ? "scopes " + String.join(", ", scopes) : "preset " + preset);
        showKeyOnce(x, issued, "created");
    }

    /**
     * POST, redirect, GET: the key goes to the page after the redirect (sealed for this session, see
     * {@link OneTimeView}), so reloading that page never posts the form again.
     */
    private static void showKeyOnce(ConsoleExchange x, ConnectionAdmin.Issued issued, String what) {
        String path = newKeyPath(issued.connectionId());
        OneTimeView.seal(x, path, what + ":" + issued.key());
        x.redirect(path);
    }

    private static String newKeyPath(UUID connectionId) {
        return "/console/connections/" + connectionId + "/new-key";
    }

    /** The key of the create or rotate form just sent, once; afterwards a page that says it was shown. */
    void newKey(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_CONNECTIONS);
        UUID id = Ids.parse(x.pathParam("id"));
        var connection = find(session.workspaceId(), id);
        if (connection == null) {
            notFound(x);
            return;
        }
        var sealed = OneTimeView.open(x, newKeyPath(id)).filter(v -> v.indexOf(':') > 0);
        if (sealed.isEmpty()) {
            x.render(410, "notice.jte", console.notice(x, "The key was shown once",
                    "The key of " + connection.name() + " was shown right after it was made and is not kept. If it "
                            + "was not copied, rotate the connection's key to get a new one.",
                    "/console/connections/" + id, "Show the connection"));
            return;
        }
        String what = sealed.get().substring(0, sealed.get().indexOf(':'));
        String key = sealed.get().substring(what.length() + 1);
        x.render(200, "keyissued.jte", new Views.KeyIssued(console.chrome(x,
                what.equals("rotated") ? "New key" : "Connection created", "/console/connections"), id,
                connection.name(), key, what));
    }

    void show(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.VIEW_CONNECTIONS);
        UUID id = Ids.parse(x.pathParam("id"));
        var connection = find(session.workspaceId(), id);
        if (connection == null) {
            notFound(x);
            return;
        }
        renderOne(x, session, connection, 200, List.of());
    }

    void rotate(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        var connection = connectionToChange(x, session);
        if (connection == null) {
            return;
        }
        int grace;
        try {
            grace = Integer.parseInt(value(x.form("grace_minutes")));
        } catch (NumberFormatException e) {
            grace = -1;
        }
        if (grace < 0 || grace > MAX_GRACE_MINUTES) {
            renderOne(x, session, connection, 400, List.of("Grace period: give a whole number of minutes from 0 to "
                    + MAX_GRACE_MINUTES + "."));
            return;
        }
        ConnectionAdmin.Issued issued;
        try {
            issued = console.connections().rotate(connection.connectionId(), Duration.ofMinutes(grace));
        } catch (IllegalArgumentException e) {
            renderOne(x, session, connection, 409, List.of(e.getMessage()));
            return;
        }
        console.activity().record(session, "connection.rotated", connection.name() + " (" + connection.connectionId() + ")",
                "old keys end after " + grace + " minutes");
        showKeyOnce(x, issued, "rotated");
    }

    void revoke(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        var connection = connectionToChange(x, session);
        if (connection == null) {
            return;
        }
        if (!"yes".equals(x.form("confirm"))) {
            // Without the confirmation nothing changes: the form shows what revoking does, and asks.
            x.render(200, "confirmaction.jte", new Views.ConfirmAction(console.chrome(x, "Revoke " + connection.name(),
                    "/console/connections"), "Revoke " + connection.name() + "?",
                    "Every key of this connection stops working at once, on every node, and cannot be made to work "
                            + "again. Clients that use it get 401 from their next request.",
                    "/console/connections/" + connection.connectionId() + "/revoke", List.of(), "Revoke connection",
                    "/console/connections/" + connection.connectionId()));
            return;
        }
        try {
            console.connections().revoke(connection.connectionId());
        } catch (IllegalArgumentException e) {
            renderOne(x, session, connection, 409, List.of(e.getMessage()));
            return;
        }
        console.activity().record(session, "connection.revoked", connection.name() + " (" + connection.connectionId() + ")",
                null);
        x.redirect("/console/connections/" + connection.connectionId());
    }

    /**
     * The connection in the path of a rotate or revoke form, once the session may manage connections and the form
     * carries its CSRF token; null, with the 404 page sent, when this workspace has no such connection.
     */
    private ConnectionAdmin.Listed connectionToChange(ConsoleExchange x, ConsoleSession session) {
        ConsoleAuthorization.require(session, Permission.MANAGE_CONNECTIONS);
        x.checkPost(session.csrfToken());
        var connection = find(session.workspaceId(), Ids.parse(x.pathParam("id")));
        if (connection == null) {
            notFound(x);
        }
        return connection;
    }

    private ConnectionAdmin.Listed find(UUID workspaceId, UUID id) {
        if (id == null) {
            return null;
        }
        return console.connections().list(workspaceId).stream().filter(c -> c.connectionId().equals(id))
                .findFirst().orElse(null);
    }

    private void notFound(ConsoleExchange x) {
        x.render(404, "notice.jte", console.notice(x, "No such connection",
                "This workspace has no connection with that id.", "/console/connections", "All connections"));
    }

    private void render(ConsoleExchange x, ConsoleSession session, int status, Views.ConnectionForm form,
            List<String> errors) {
        var connections = new ArrayList<>(console.connections().list(session.workspaceId()));
        connections.sort((a, b) -> b.createdAt().compareTo(a.createdAt()));
        x.render(status, "connections.jte", new Views.ConnectionsPage(console.chrome(x, "External connections",
                "/console/connections"), connections, form, errors, List.copyOf(toolNames())));
    }

    private void renderOne(ConsoleExchange x, ConsoleSession session, ConnectionAdmin.Listed connection, int status,
            List<String> errors) {
        var settings = console.connectionActivity().settings(session.workspaceId(), connection.connectionId())
                .orElseThrow();
        List<String> policy = new ArrayList<>();
        policy.add(settings.delegation() ? "Acts for " + settings.delegatedEmail() + " (limited to their role)"
                : "No user delegation");
        policy.add(settings.toolAllow() == null ? "MCP tools: whatever its scopes permit"
                : "MCP tools allowed: " + String.join(", ", settings.toolAllow()));
        if (!settings.toolDeny().isEmpty()) {
            policy.add("MCP tools denied: " + String.join(", ", settings.toolDeny()));
        }
        if (settings.readOnlyTools()) {
            policy.add("Read-only MCP tools only");
        }
        x.render(status, "connection.jte", new Views.ConnectionPage(console.chrome(x, connection.name(),
                "/console/connections"), connection, String.join(" · ", policy),
                console.connectionActivity().requests(session.workspaceId(), connection.connectionId(), 50),
                console.connectionActivity().toolCalls(session.workspaceId(), connection.connectionId(), 50), errors));
    }

    private Views.ConnectionForm emptyForm(UUID workspaceId) {
        return form(workspaceId, "", List.of(), "", "", false, "", "", "", false);
    }

    private Views.ConnectionForm form(UUID workspaceId, String name, List<String> scopes, String preset,
            String expiresOn, boolean delegation, String delegatedUser, String allow, String deny, boolean readOnly) {
        List<Choice> scopeChoices = console.plugins().scopes().stream().sorted()
                .map(s -> new Choice(s, s, scopes.contains(s))).toList();
        List<Choice> presets = List.of(
                new Choice("", "None: use the scopes below", preset.isEmpty()),
                new Choice(PluginCatalog.READ_ONLY, "Read-only (every read scope)", preset.equals(PluginCatalog.READ_ONLY)),
                new Choice(PluginCatalog.FULL_ACCESS, "Full access (every scope)", preset.equals(PluginCatalog.FULL_ACCESS)));
        List<Choice> users = console.connectionActivity().users(workspaceId).stream()
                .map(u -> new Choice(u.id().toString(), u.email() + " (" + u.role() + ")",
                        u.id().toString().equals(delegatedUser))).toList();
        return new Views.ConnectionForm(name, scopeChoices, presets, expiresOn, users, delegation, allow, deny, readOnly);
    }

    private Set<String> toolNames() {
        return new TreeSet<>(console.plugins().toolNames());
    }

    /** A comma-separated tool list; null when empty (no allow list). */
    private static List<String> tools(String text) {
        List<String> names = Arrays.stream(text.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        return names.isEmpty() ? null : names;
    }

    private static String value(String s) {
        return s == null ? "" : s.strip();
    }
}
