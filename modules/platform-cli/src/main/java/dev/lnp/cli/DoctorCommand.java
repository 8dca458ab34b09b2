package dev.lnp.cli;

import dev.lnp.api.internal.subsystem.DoctorCheck;
import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.database.Database;
import dev.lnp.database.DatabaseBootstrap;
import dev.lnp.database.migrations.Migrations;
import dev.lnp.core.plugins.LoadedPlugin;
import dev.lnp.core.plugins.PluginRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check the configuration, the database (reachable, version, migrations, extensions,",
                "row-level security), free disk space, this node's clock against the database's, that every",
                "console and mail template renders, and the mail path (a test message to the local mailbox, or",
                "a connection and sign-in to the SMTP server), and say what to fix. Exits 1 when a check fails,",
                "0 otherwise (warnings included)."})
final class DoctorCommand implements Callable<Integer> {

    static final long MIN_SERVER_VERSION = 150000;
    static final long DISK_FAIL_BYTES = 512L << 20;
    static final long DISK_WARN_BYTES = 5L << 30;
    static final Duration SKEW_WARN = Duration.ofSeconds(1);
    static final Duration SKEW_FAIL = Duration.ofSeconds(30);

    @Option(names = "--mail-to", paramLabel = "ADDRESS", description = {"With an SMTP server configured, also send "
            + "a test message to this address (without it the doctor only connects and signs in). With the local "
            + "mailbox, the test message's recipient (default: the From address)."})
    String mailTo;

    private final Supplier<TemplateCheck> templates;
    private DoctorReport report;

    DoctorCommand() {
        this(TemplateCheck::shipped);
    }

    /** @param templates the templates to render (the shipped ones; a test gives others) */
    DoctorCommand(Supplier<TemplateCheck> templates) {
        this.templates = templates;
    }

    @Override
    public Integer call() {
        report = new DoctorReport(System.out);
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.SEVERE);
        PlatformConfig config;
        try {
            config = PlatformConfig.fromEnvironment(Map.of());
            int management = config.getInt("lnp.management.port", 9464);
            if (config.get("lnp.base.url").isEmpty()) {
                warn("configuration", "lnp.base.url is not set; set it to the public https:// origin clients use");
            } else {
                ok("configuration", "loaded; base URL " + config.baseUrl() + ", API port " + config.httpPort()
                        + ", metrics " + (management < 0 ? "off" : "port " + management));
            }
        } catch (RuntimeException e) {
            fail("configuration", e.getMessage(), "fix conf/platform.yaml or the LNP_* variables it names");
            return 1;
        }
        disk(config.dataDir());
        try {
            templates.get().run(report);
        } catch (RuntimeException | LinkageError e) {
            fail("templates", "the template engine cannot start: " + e, "this build is broken; install another release");
        }
        Optional<Jdbi> reachable = Optional.empty();
        try (var plugins = new Plugins(config);
                var bootstrap = DatabaseBootstrap.forOperatorCommand(config);
                Database database = bootstrap.connect()) {
            ok("plugins", plugins.loaded().stream().map(p -> p.id() + " " + p.version()).toList().toString());
            PluginRegistry registry = plugins.registry(config);
            if (database(database)) {
                migrations(new Migrations(database.dataSource(), database.jdbi()), plugins.loaded(), registry);
                extensions(database);
                clock(database);
                reachable = Optional.of(database.jdbi());
            }
            var subsystems = dev.lnp.api.internal.subsystem.Subsystem.load();
            var context = new DoctorCheck.Context(config, Optional.ofNullable(mailTo), reachable,
                    to -> subsystems.stream().flatMap(s -> s.sampleMail(config, to).stream()).findFirst()
                            .orElseGet(() -> plainSample(to)));
            subsystems.forEach(subsystem -> subsystem.doctorChecks().forEach(check -> check.run(context, report)));
        } catch (RuntimeException e) {
            fail("startup", String.valueOf(e.getMessage()), "see the message; the other checks could not run");
        }
        List<String> failures = report.failures();
        System.out.println(failures.isEmpty() ? "No problems found." : failures.size() + " check(s) failed.");
        return failures.isEmpty() ? 0 : 1;
    }

    /** The test message of an installation without the console, whose sign-in mail it would be otherwise. */
    private static OutgoingMail plainSample(String to) {
        return new OutgoingMail(null, to, "Test message from the workspace platform", "This is a test message from "
                + "`platform doctor`: the platform's mail reaches you. Nothing needs to be done.", null, null);
    }

    private boolean database(Database database) {
        try {
            var server = database.jdbi().withHandle(h -> h.createQuery(
                            "SELECT current_setting('server_version') AS v, current_setting('server_version_num')::int AS n")
                    .map((rs, ctx) -> Map.entry(rs.getString("v"), rs.getLong("n"))).one());
            if (server.getValue() < MIN_SERVER_VERSION) {
                fail("database", "PostgreSQL " + server.getKey() + " is older than 15", "upgrade PostgreSQL to 15 or newer");
            } else {
                ok("database", "reachable, PostgreSQL " + server.getKey());
            }
            return true;
        } catch (RuntimeException e) {
            fail("database", "not reachable: " + rootMessage(e), "check lnp.database.url, the user and password, "
                    + "and that PostgreSQL accepts connections from this host");
            return false;
        }
    }

    private void migrations(Migrations migrations, List<LoadedPlugin> loaded, PluginRegistry registry) {
        List<Migrations.Owner> owners = new ArrayList<>(List.of(Migrations.Owner.core()));
        // A subsystem's scripts grant exactly what requests need, as the core's do: no plugin's row-level check.
        List<Migrations.Owner> subsystems = migrations.subsystems().stream().map(Migrations.SubsystemOwner::owner)
                .toList();
        owners.addAll(subsystems);
        for (LoadedPlugin plugin : loaded) {
            registry.contributionsOf(plugin.id()).flatMap(PluginRegistry.Contributions::schema)
                    .ifPresent(s -> owners.add(new Migrations.Owner(plugin.id(), s, plugin.classLoader())));
        }
        for (Migrations.Owner owner : owners) {
            String name = owner.id().equals(Migrations.Owner.core().id()) ? "core" : owner.id();
            Migrations.Status status = migrations.status(owner);
            if (!status.missing().isEmpty()) {
                fail("migrations " + name, "the database has migrations this platform does not carry: "
                        + status.missing(), "put back the module that took them over (its jar in lib/)");
            } else if (status.newer().stream().anyMatch(n -> !n.compatible())) {
                fail("migrations " + name, "the database has migrations this version does not know: " + status.newer(),
                        "run the newer version of the platform that applied them");
            } else if (!status.newer().isEmpty()) {
                warn("migrations " + name, "a newer version applied " + status.newer() + ", all marked compatible: "
                        + "this version runs beside them; upgrade it");
            } else if (status.pending() > 0) {
                warn("migrations " + name, status.pending() + " pending (at " + status.current()
                        + "); run `platform migrate`, or `serve` applies them at start");
            } else {
                ok("migrations " + name, "up to date at " + status.current());
            }
            if (!owner.id().equals(Migrations.Owner.core().id()) && !subsystems.contains(owner)
                    && !status.current().equals("none")) {
                List<String> unprotected = migrations.tablesWithoutRowLevelSecurity(owner.schema());
                if (unprotected.isEmpty()) {
                    ok("row-level security " + name, "every workspace table is protected");
                } else {
                    fail("row-level security " + name, "workspace tables without row-level security (enabled, "
                            + "forced, with a policy): " + unprotected, "restore the plugin's policies (its "
                            + "migrations create them); the platform refuses to start like this");
                }
            }
        }
    }

    private void extensions(Database database) {
        List<String> missing = database.jdbi().withHandle(h -> h.createQuery("""
                        SELECT e.name FROM (VALUES ('pg_trgm'), ('unaccent')) AS e(name)
                         WHERE NOT EXISTS (SELECT 1 FROM pg_available_extensions a WHERE a.name = e.name)
                        """).mapTo(String.class).list());
        if (missing.isEmpty()) {
            ok("extensions", "pg_trgm and unaccent are available");
        } else {
            fail("extensions", "not available on the server: " + missing,
                    "install PostgreSQL's contrib extensions (Debian: postgresql-contrib)");
        }
        boolean tenantRole = database.jdbi().withHandle(h -> h.createQuery(
                "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :role)")
                .bind("role", Migrations.TENANT_ROLE).mapTo(Boolean.class).one());
        if (tenantRole) {
            ok("tenant role", Migrations.TENANT_ROLE + " exists (requests run as it, under row-level security)");
        } else {
            warn("tenant role", Migrations.TENANT_ROLE + " does not exist yet; the first migration creates it "
                    + "(the database user needs CREATEROLE, or create the role and grant it)");
        }
    }

    /** This node against the database's clock, which every node shares: leases and schedules compare times. */
    private void clock(Database database) {
        Instant sent = Instant.now();
        Instant server = database.jdbi().withHandle(h -> h.createQuery("SELECT clock_timestamp()")
                .mapTo(java.time.OffsetDateTime.class).one()).toInstant();
        Instant received = Instant.now();
        Instant local = sent.plus(Duration.between(sent, received).dividedBy(2));
        Duration skew = Duration.between(server, local).abs();
        String text = "this node is " + skew.toMillis() + " ms off the database server's clock";
        if (skew.compareTo(SKEW_FAIL) > 0) {
            fail("clock", text, "synchronise the clocks of every node and the database (NTP, chrony)");
        } else if (skew.compareTo(SKEW_WARN) > 0) {
            warn("clock", text + "; synchronise the clocks (NTP, chrony)");
        } else {
            ok("clock", text);
        }
    }

    private void disk(Path dataDir) {
        Path existing = dataDir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            long free = Files.getFileStore(existing).getUsableSpace();
            String text = (free >> 20) + " MB free for " + dataDir;
            if (free < DISK_FAIL_BYTES) {
                fail("disk", text, "free space or move lnp.data.dir to a larger volume");
            } else if (free < DISK_WARN_BYTES) {
                warn("disk", text + "; less than 5 GB");
            } else {
                ok("disk", text);
            }
        } catch (IOException | RuntimeException e) {
            fail("disk", "cannot read the free space of " + dataDir + ": " + e.getMessage(), "check lnp.data.dir");
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage()).lines().findFirst().orElse("");
    }

    private void ok(String check, String text) {
        report.ok(check, text);
    }

    private void warn(String check, String text) {
        report.warn(check, text);
    }

    private void fail(String check, String text, String fix) {
        report.fail(check, text, fix);
    }
}
