package dev.lnp.database.migrations;

import dev.lnp.api.internal.subsystem.OwnedMigrations;
import dev.lnp.api.internal.subsystem.Subsystem;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.jdbi.v3.core.Jdbi;

/**
 * Runs the core's, each subsystem's and each plugin's Flyway migrations, in that order. Every owner has its own
 * history schema, its own script location ({@code db/migration/<owner>}) read through its own class loader, and its
 * own history table, so modules and plugins can be added, removed and upgraded independently. A subsystem may have
 * taken over versions of the core's history ({@link CoreHistoryTakeOver}).
 */
public final class Migrations {

    /** The role requests run as, so that row-level security applies even when the pool connects as superuser. */
    public static final String TENANT_ROLE = "lnp_tenant";

    private final OwnerFlyway flyways;
    private final MigrationSeals seals;
    private final PluginSchemaProtection protection;
    private final CoreHistoryTakeOver takeOver;
    private final List<SubsystemOwner> subsystems;
    private final DataSource dataSource;

    /** For the subsystems found on this platform's path ({@link Subsystem#load()}). */
    public Migrations(DataSource dataSource, Jdbi jdbi) {
        this(dataSource, jdbi, SubsystemOwner.of(Subsystem.load()));
    }

    public Migrations(DataSource dataSource, Jdbi jdbi, List<SubsystemOwner> subsystems) {
        this.dataSource = dataSource;
        this.seals = new MigrationSeals(jdbi);
        this.protection = new PluginSchemaProtection(jdbi);
        this.takeOver = new CoreHistoryTakeOver(jdbi);
        this.subsystems = List.copyOf(subsystems);
        this.flyways = new OwnerFlyway(dataSource, new java.util.TreeSet<>(subsystems.stream()
                .flatMap(subsystem -> subsystem.takenFromCore().stream()).toList()));
    }

    public static final String CORE_SCHEMA = "lnp_core";

    /** Whose migrations: the core ({@code lnp-core}: not a legal package name, so its scripts stay readable
     * from inside this named module) or a plugin (its id), in which schema, read through which class loader. */
    public record Owner(String id, String schema, ClassLoader classLoader) {
        public static Owner core() {
            return new Owner("lnp-core", CORE_SCHEMA, Migrations.class.getClassLoader());
        }
    }

    /**
     * A subsystem's migrations ({@link OwnedMigrations}): its owner, and the versions of the core's history it took
     * over.
     */
    public record SubsystemOwner(Owner owner, List<String> takenFromCore) {

        public SubsystemOwner {
            takenFromCore = List.copyOf(takenFromCore);
        }

        /** The migrations of those subsystems that own any, each read through its own module's class loader. */
        public static List<SubsystemOwner> of(List<Subsystem> subsystems) {
            return subsystems.stream().flatMap(subsystem -> subsystem.migrations().stream().map(owned -> new SubsystemOwner(
                    new Owner(owned.owner(), owned.historySchema(), subsystem.getClass().getClassLoader()),
                    owned.takenFromCore()))).toList();
        }
    }

    /**
     * What the database holds against what this binary carries, for one owner. {@code upToDate}: every script of
     * this binary is applied successfully with the same checksum, description and type (or counts as applied below
     * a baseline), and the history holds nothing else (no pending, failed, missing or newer migration; in the core's,
     * no migration missing but those subsystems took over), so Flyway's migrate would do nothing. {@code missing}:
     * migrations the history applied that neither this binary nor a subsystem of it carries.
     */
    public record Status(Owner owner, String current, int pending, List<Newer> newer, List<String> missing,
            boolean upToDate) {
    }

    /**
     * A migration the database has and this binary does not: a newer version applied it. One named
     * {@code V<n>__compatible_<what>.sql} declares that nodes of the previous version keep working beside it
     * (additive changes: new tables, nullable columns, indexes), which is what a rolling upgrade needs.
     */
    public record Newer(String version, String description) {
        public boolean compatible() {
            return description.startsWith("compatible");
        }

        @Override
        public String toString() {
            return "V" + version + " " + description;
        }
    }

    /** The core's own tables; its scripts grant the tenant role exactly what requests need. */
    public void migrateCore() {
        MigrationRefusals.requireNothingMissing(status(Owner.core()));
        flyway(Owner.core()).migrate();
    }

    /** The subsystems that own migrations, in {@link Subsystem#load()}'s order. */
    public List<SubsystemOwner> subsystems() {
        return subsystems;
    }

    /**
     * As {@link #prepareCore(Future)}, for the subsystems' migrations, after the core's: each takes over its versions
     * of the core's history when it has no history yet ({@link CoreHistoryTakeOver}), then is checked (by its seal, or
     * by Flyway), and migrated and sealed when not up to date. Their scripts grant the tenant role exactly what
     * requests need, as the core's do.
     */
    public void prepareSubsystems() {
        for (SubsystemOwner subsystem : subsystems) {
            if (!upToDateBySeal(List.of(subsystem.owner())).isEmpty()) {
                continue;
            }
            takeOver.takeOver(subsystem, flyways.configure(subsystem.owner()));
            Status status = checkAndSeal(subsystem.owner(), carried(subsystem.owner()));
            if (!status.upToDate()) {
                MigrationRefusals.requireRunnable(status, subsystem.owner().id());
                flyway(subsystem.owner()).migrate();
                sealAfterMigrating(status, carried(subsystem.owner()));
            }
        }
    }

    /** One subsystem's migrations, taking over its versions of the core's history first (the operator's migrate). */
    public void migrateSubsystem(SubsystemOwner subsystem) {
        takeOver.takeOver(subsystem, flyways.configure(subsystem.owner()));
        flyway(subsystem.owner()).migrate();
    }

    /** Starts checking the core's history on a thread of its own, for {@link #prepareCore(Future)}: a start reads
     * it while the plugins register. */
    public Future<Status> readCoreStatus() {
        var read = new java.util.concurrent.FutureTask<>(() -> {
            Owner core = Owner.core();
            Optional<String> carried = carried(core);
            Optional<Status> sealed = carried.flatMap(digest -> sealed(Map.of(core, digest)).stream().findFirst());
            return sealed.orElseGet(() -> checkAndSeal(core, carried));
        });
        Thread.ofVirtual().name("lnp-core-history").start(read);
        return read;
    }

    /**
     * What a start does with the core's schema, given its history ({@link #readCoreStatus()}): refuse a database a
     * newer version migrated incompatibly, then migrate. On an up-to-date database that read is all: Flyway's
     * migrate (its lock, a second scan of the scripts and a second read of the history) would find nothing to do
     * and nothing to refuse, and it was most of a restart's migration time.
     */
    public void prepareCore(Future<Status> coreHistory) {
        Status status = HistoryReads.await(coreHistory);
        if (!status.upToDate()) {
            MigrationRefusals.requireRunnable(status, "core");
            flyway(Owner.core()).migrate();
            sealAfterMigrating(status, carried(status.owner()));
        }
    }

    /**
     * As {@link #prepareCore(Future)}, for the plugins' schemas, in the given (dependency) order. The schemas whose
     * seal matches (see {@link #upToDateBySeal(List)}) are checked with one statement; the others' histories are
     * read by Flyway concurrently (as many at once as the pool allows, see {@link HistoryReads#concurrentReads}), and sealed
     * when up to date; migrating, when needed, stays one owner after the other, and is sealed after it. The tenant
     * role's grants and the row-level security check of {@link #migrateProtectedPlugin} apply on every start.
     */
    public void preparePlugins(List<Owner> owners) {
        List<Owner> sealed = upToDateBySeal(owners);
        protect(sealed);
        List<Owner> unsealed = owners.stream().filter(owner -> !sealed.contains(owner)).toList();
        List<Status> statuses;
        var connections = new java.util.concurrent.Semaphore(HistoryReads.concurrentReads(dataSource));
        try (var readers = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Status>> reads = unsealed.stream().map(owner -> readers.submit(() -> {
                connections.acquire();
                try {
                    Status status = checkAndSeal(owner, carried(owner));
                    if (status.upToDate()) {
                        protect(List.of(owner));
                    }
                    return status;
                } finally {
                    connections.release();
                }
            })).toList();
            statuses = reads.stream().map(HistoryReads::await).toList();
        }
        for (Status status : statuses) {
            if (!status.upToDate()) {
                MigrationRefusals.requireRunnable(status, status.owner().id());
                flyway(status.owner()).migrate();
                protect(List.of(status.owner()));
                sealAfterMigrating(status, carried(status.owner()));
            }
        }
    }

    /**
     * Those of the owners whose schema was found up to date by Flyway, for exactly the scripts and Flyway
     * configuration this binary carries, with the history exactly as it is now: Flyway would find nothing to
     * apply and nothing to refuse for them. One statement for all; an owner whose scripts cannot be digested
     * ({@link CarriedMigrations}) is never among them.
     */
    public List<Owner> upToDateBySeal(List<Owner> owners) {
        Map<Owner, String> sealable = new java.util.LinkedHashMap<>();
        owners.forEach(owner -> carried(owner).ifPresent(digest -> sealable.put(owner, digest)));
        return sealed(sealable).stream().map(Status::owner).toList();
    }

    private List<Status> sealed(Map<Owner, String> carried) {
        Map<String, String> bySchema = new java.util.HashMap<>();
        carried.forEach((owner, digest) -> bySchema.put(owner.schema(), digest));
        Map<String, String> current = seals.matching(bySchema);
        return carried.keySet().stream().filter(owner -> current.containsKey(owner.schema()))
                .map(owner -> new Status(owner, current.get(owner.schema()), 0, List.of(), List.of(), true)).toList();
    }

    /**
     * Flyway's check of one owner ({@link #status(Owner)}), sealed when up to date. The history's digest is read
     * before the check and the seal is written only if it is still the same after it.
     */
    private Status checkAndSeal(Owner owner, Optional<String> carried) {
        Optional<String> history = seals.history(owner.schema());
        Status status = status(owner);
        if (status.upToDate() && carried.isPresent() && history.isPresent()) {
            seals.seal(owner.schema(), carried.get(), history.get(), status.current());
        }
        return status;
    }

    /**
     * Flyway's check once more after migrating, so that the next start finds the schema sealed; skipped when a
     * newer version's migrations are in the history, since they keep it from being up to date for this binary.
     */
    private void sealAfterMigrating(Status before, Optional<String> carried) {
        if (before.newer().isEmpty()) {
            checkAndSeal(before.owner(), carried);
        }
    }

    private Optional<String> carried(Owner owner) {
        return flyways.carried(owner);
    }

    /**
     * Reads, without changing anything, which migrations are pending and which the database has applied that
     * this binary does not know (the database was migrated by a newer version) or no longer carries.
     */
    public Status status(Owner owner) {
        return flyways.status(owner);
    }

    private Flyway flyway(Owner owner) {
        return flyways.configure(owner).load();
    }

    /**
     * Migrates a plugin's schema and refuses to go on when one of its workspace tables lacks row-level security
     * (enabled, forced, with a policy): serving it would leak rows between workspaces.
     */
    public void migrateProtectedPlugin(String pluginId, String schema, ClassLoader classLoader) {
        Owner owner = new Owner(pluginId, schema, classLoader);
        flyway(owner).migrate();
        protect(List.of(owner));
    }

    private void protect(List<Owner> owners) {
        protection.protect(owners);
    }

    /**
     * Every table of a plugin's schema that has a {@code workspace_id} column must have row-level security
     * enabled, forced, and at least one policy. Returns the tables that do not.
     */
    public List<String> tablesWithoutRowLevelSecurity(String schema) {
        return protection.tablesWithoutRowLevelSecurity(List.of(schema)).getOrDefault(schema, List.of());
    }
}
