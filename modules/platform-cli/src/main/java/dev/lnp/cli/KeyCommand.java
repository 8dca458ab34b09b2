package dev.lnp.cli;

import dev.lnp.api.Json;
import dev.lnp.core.auth.Connections;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "key", mixinStandardHelpOptions = true,
        description = "Manage external connections and their API keys.",
        subcommands = {KeyCommand.Create.class, KeyCommand.Rotate.class, KeyCommand.Revoke.class,
                KeyCommand.ImportLegacy.class, KeyCommand.ListKeys.class, KeyCommand.Tools.class})
final class KeyCommand {

    static final class Grant {
        @Option(names = "--scopes", split = ",", description = "Comma-separated scopes, e.g. contacts.read,deals.write.")
        List<String> scopes;

        @Option(names = "--preset", description = "read-only or full-access.")
        String preset;
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create a connection and print its key (shown only this once).")
    static final class Create implements Callable<Integer> {
        @Option(names = "--workspace", required = true, paramLabel = "ID", description = "The workspace's id.")
        UUID workspace;
        @Option(names = "--name", required = true, description = "What the connection is for (1-200 characters), "
                + "e.g. zapier or desktop assistant.")
        String name;
        @ArgGroup(exclusive = true, multiplicity = "1") Grant grant;
        @Option(names = "--expires-at", description = "ISO-8601 instant, e.g. 2027-01-31T00:00:00Z.") String expiresAt;
        @Option(names = "--delegate-user", description = "Attribute writes to this user and limit to their role.") UUID delegateUser;
        @Option(names = "--json", description = "Print JSON: connection_id, identity_id, key.") boolean json;

        @Override
        public Integer call() {
            Instant expiry = expiresAt == null ? null : instant(expiresAt);
            try (var context = new OperatorContext()) {
                var issued = context.connections().create(new Connections.NewConnection(workspace, name,
                        grant.scopes, grant.preset, expiry, delegateUser));
                print(json, issued);
                return 0;
            }
        }
    }

    @Command(name = "rotate", mixinStandardHelpOptions = true,
            description = "Issue a new secret for the same connection; older secrets end after the grace period.")
    static final class Rotate implements Callable<Integer> {
        @Option(names = "--connection", required = true, paramLabel = "ID", description = "The connection's id.")
        UUID connection;
        @Option(names = "--grace", defaultValue = "PT0S", description = "ISO-8601 duration the old secret keeps working, e.g. PT1H or 15m.")
        String grace;
        @Option(names = "--json", description = "Print JSON: connection_id, identity_id, key.") boolean json;

        @Override
        public Integer call() {
            Duration duration = duration(grace);
            try (var context = new OperatorContext()) {
                print(json, context.connections().rotate(connection, duration));
                return 0;
            }
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a connection and all its keys now.")
    static final class Revoke implements Callable<Integer> {
        @Option(names = "--connection", required = true, paramLabel = "ID", description = "The connection's id.")
        UUID connection;

        @Override
        public Integer call() {
            try (var context = new OperatorContext()) {
                context.connections().revoke(connection);
                System.out.println("Revoked connection " + connection);
                return 0;
            }
        }
    }

    @Command(name = "import-legacy", mixinStandardHelpOptions = true,
            description = {"Accept legacy wks_ keys until the compatibility period ends (lnp.keys.legacy_until; "
                    + "open while unset).",
                    "Reads one connection,key pair per line from standard input or --file (never from the command "
                            + "line, where ps and the shell history would keep them); # starts a comment. All lines "
                            + "are imported or none; a key already on its connection is skipped, so a run can be "
                            + "repeated."},
            footer = {"", "Example: bin/platform key import-legacy < legacy-keys.csv"})
    static final class ImportLegacy implements Callable<Integer> {
        @Option(names = "--file", paramLabel = "PATH", defaultValue = "-",
                description = "File of connection,key lines; - (the default) reads standard input.")
        String file;

        @Override
        public Integer call() throws java.io.IOException {
            List<Connections.LegacyKey> keys;
            if (file.equals("-")) {
                keys = LegacyKeyLines.read(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
            } else {
                java.nio.file.Path path = java.nio.file.Path.of(file);
                if (!java.nio.file.Files.isReadable(path)) {
                    throw new IllegalArgumentException("cannot read " + file);
                }
                try (var reader = java.nio.file.Files.newBufferedReader(path)) {
                    keys = LegacyKeyLines.read(reader);
                }
            }
            try (var context = new OperatorContext()) {
                var result = context.connections().importLegacy(keys);
                System.out.println("Imported " + result.imported() + " legacy key(s) for " + result.connections()
                        + " connection(s)" + (result.alreadyPresent() == 0 ? ""
                        : "; " + result.alreadyPresent() + " already imported, skipped"));
                return 0;
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List connections and key prefixes (never secrets).")
    static final class ListKeys implements Callable<Integer> {
        @Option(names = "--workspace", required = true, paramLabel = "ID", description = "The workspace's id.")
        UUID workspace;
        @Option(names = "--json", description = "Print JSON: every connection with its keys' prefixes and dates.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            try (var context = new OperatorContext()) {
                var connections = context.connections().list(workspace);
                if (json) {
                    var snakeCase = Json.mapper().copy()
                            .setPropertyNamingStrategy(com.fasterxml.jackson.databind.PropertyNamingStrategies.SNAKE_CASE);
                    System.out.println(snakeCase.writeValueAsString(connections));
                } else {
                    System.out.printf("%-36s  %-24s %s%n", "CONNECTION", "NAME", "SCOPES");
                    for (var c : connections) {
                        System.out.printf("%s  %-24s %s%s%n", c.connectionId(), c.name(),
                                c.preset() != null ? c.preset() : String.join(",", c.scopes()),
                                c.revokedAt() != null ? "  (revoked)" : "");
                    }
                }
                return 0;
            }
        }
    }

    @Command(name = "tools", mixinStandardHelpOptions = true,
            description = "Set which MCP tools a connection may call beyond its scopes (replaces its earlier settings).")
    static final class Tools implements Callable<Integer> {
        @Option(names = "--connection", required = true, paramLabel = "ID", description = "The connection's id.")
        UUID connection;
        @Option(names = "--allow", split = ",", description = "Only these tools (comma-separated); omit for no allow list.")
        List<String> allow;
        @Option(names = "--deny", split = ",", description = "Never these tools (comma-separated).")
        List<String> deny;
        @Option(names = "--read-only-tools", description = "Only tools annotated read-only.")
        boolean readOnlyTools;

        @Override
        public Integer call() {
            try (var context = new OperatorContext()) {
                var unknown = new java.util.TreeSet<String>();
                if (allow != null) {
                    unknown.addAll(allow);
                }
                if (deny != null) {
                    unknown.addAll(deny);
                }
                unknown.removeAll(context.toolNames());
                if (!unknown.isEmpty()) {
                    throw new IllegalArgumentException("unknown tool(s) " + unknown + "; known: " + context.toolNames());
                }
                context.connections().setToolPolicy(connection, allow, deny == null ? List.of() : deny, readOnlyTools);
                System.out.println("Tool settings of connection " + connection + ": allow "
                        + (allow == null ? "whatever its scopes permit" : String.join(",", allow)) + "; deny "
                        + (deny == null ? "none" : String.join(",", deny)) + (readOnlyTools ? "; read-only tools only" : ""));
                return 0;
            }
        }
    }

    private static void print(boolean json, Connections.Issued issued) {
        if (json) {
            System.out.println(Json.object().put("connection_id", issued.connectionId().toString())
                    .put("identity_id", issued.identityId().toString()).put("key", issued.key()));
        } else {
            System.out.println("Connection " + issued.connectionId() + "\nKey (shown once): " + issued.key());
        }
    }

    static Instant instant(String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--expires-at must be an ISO-8601 instant such as 2027-01-31T00:00:00Z");
        }
    }

    /** ISO-8601 ({@code PT15M}) or the short forms 30s, 15m, 2h, 1d. */
    static Duration duration(String value) {
        try {
            if (value.matches("\\d+[smhd]")) {
                long n = Long.parseLong(value.substring(0, value.length() - 1));
                return switch (value.charAt(value.length() - 1)) {
                    case 's' -> Duration.ofSeconds(n);
                    case 'm' -> Duration.ofMinutes(n);
                    case 'h' -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            }
            return Duration.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--grace must be a duration such as PT1H, 15m or 30s");
        }
    }
}
