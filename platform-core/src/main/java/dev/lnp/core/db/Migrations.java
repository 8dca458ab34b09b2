package dev.lnp.core.db;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationState;
import org.jdbi.v3.core.Jdbi;

/**
 * Runs the core's and each plugin's Flyway migrations. Every owner has its own schema, its own script
 * location ({@code db/migration/<owner>}) read through its own class loader, and its own history table, so
 * plugins can be added, removed and upgraded independently.
 */
public final class Migrations {

    /** The role requests run as, so that row-level security applies even when the pool connects as superuser. */
    public static final String TENANT_ROLE = "lnp_tenant";

    private static final System.Logger LOG = System.getLogger(Migrations.class.getName());

    private static final String HISTORY_TABLE = "flyway_history";
    private static final Map<String, String> PLACEHOLDERS = Map.of("tenant_role", TENANT_ROLE);

    private final DataSource dataSource;
    private final Jdbi jdbi;
    private final MigrationSeals seals;

    public Migrations(DataSource dataSource, Jdbi jdbi) {
        this.dataSource = dataSource;
        this.jdbi = jdbi;
        this.seals = new MigrationSeals(jdbi);
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
     * What the database holds against what this binary carries, for one owner. {@code upToDate}: every script of
     * this binary is applied successfully with the same checksum, description and type, and the history holds
     * nothing else (no pending, failed, missing or newer migration), so Flyway's migrate would do nothing.
     */
    public record Status(Owner owner, String current, int pending, List<Newer> newer, boolean upToDate) {
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
        flyway(Owner.core()).migrate();
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
        Status status = await(coreHistory);
        if (!status.upToDate()) {
            requireRunnable(status, "core");
            migrateCore();
            sealAfterMigrating(status, carried(status.owner()));
        }
    }

    /**
     * As {@link #prepareCore(Future)}, for the plugins' schemas, in the given (dependency) order. The schemas whose
     * seal matches (see {@link #upToDateBySeal(List)}) are checked with one statement; the others' histories are
     * read by Flyway concurrently (as many at once as the pool allows, see {@link #concurrentReads()}), and sealed
     * when up to date; migrating, when needed, stays one owner after the other, and is sealed after it. The tenant
     * role's grants and the row-level security check of {@link #migrateProtectedPlugin} apply on every start.
     */
    public void preparePlugins(List<Owner> owners) {
        List<Owner> sealed = upToDateBySeal(owners);
        protect(sealed);
        List<Owner> unsealed = owners.stream().filter(owner -> !sealed.contains(owner)).toList();
        List<Status> statuses;
        var connections = new java.util.concurrent.Semaphore(concurrentReads());
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
            statuses = reads.stream().map(Migrations::await).toList();
        }
        for (Status status : statuses) {
            if (!status.upToDate()) {
                requireRunnable(status, status.owner().id());
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
                .map(owner -> new Status(owner, current.get(owner.schema()), 0, List.of(), true)).toList();
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
        return CarriedMigrations.digest(owner, "table " + HISTORY_TABLE + ", placeholders " + PLACEHOLDERS);
    }

    /**
     * How many histories may be read at once. Flyway holds two pooled connections while it reads one (its main
     * connection and the one it would migrate on), so readers that each got one connection and wait for a second
     * would take a small pool whole and never finish: a pool of 4 and seven plugins refused every start. Half the
     * pool, less one connection left for anything else starting, and at least one reader.
     */
    private int concurrentReads() {
        int pool = dataSource instanceof com.zaxxer.hikari.HikariDataSource hikari ? hikari.getMaximumPoolSize() : 2;
        return Math.max(1, (pool - 1) / 2);
    }

    private static Status await(Future<Status> read) {
        try {
            return read.get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the migration histories", e);
        }
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

    /**
     * The tenant role's grants on migrated plugin schemas, and the refusal of one without row-level security; one
     * round trip for the grants and one for the check, however many schemas.
     */
    private void protect(List<Owner> owners) {
        if (owners.isEmpty()) {
            return;
        }
        List<String> schemas = owners.stream().map(Owner::schema).toList();
        grantToTenantRole(schemas);
        Map<String, List<String>> unprotected = tablesWithoutRowLevelSecurity(schemas);
        for (Owner owner : owners) {
            List<String> tables = unprotected.getOrDefault(owner.schema(), List.of());
            if (!tables.isEmpty()) {
                throw new IllegalStateException("Plugin " + owner.id() + " has workspace tables without "
                        + "row-level security (enabled, forced, with a policy): " + tables);
            }
        }
    }

    /**
     * Whether a node of this version may run against the database: not when a newer version applied a migration
     * that is not marked compatible (the schema may have changed under this version's queries). Compatible ones
     * are logged and tolerated, so an older node keeps (re)starting during a rolling upgrade.
     *
     * @param name how messages name the owner ({@code core} or the plugin id)
     */
    private static void requireRunnable(Status status, String name) {
        List<Newer> newer = status.newer();
        List<String> incompatible = newer.stream().filter(n -> !n.compatible()).map(n -> name + " " + n).toList();
        if (!incompatible.isEmpty()) {
            throw new IllegalStateException("The database was migrated by a newer version of the platform ("
                    + String.join(", ", incompatible) + ") that this version cannot run against; run that version "
                    + "or a newer one");
        }
        if (!newer.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "The database has migrations of a newer version ({0} {1}), all "
                    + "marked compatible: this node runs beside them; upgrade it soon", name, newer);
        }
    }

    /**
     * Reads, without changing anything, which migrations are pending and which the database has applied that
     * this binary does not know (the database was migrated by a newer version).
     */
    public Status status(Owner owner) {
        var info = flyway(owner).info();
        List<Newer> newer = java.util.Arrays.stream(info.all())
                .filter(m -> m.getState().name().startsWith("FUTURE"))
                .map(m -> new Newer(m.getVersion().toString(), m.getDescription())).toList();
        var current = info.current();
        boolean upToDate = java.util.Arrays.stream(info.all()).allMatch(m -> m.getState() == MigrationState.SUCCESS
                && m.isChecksumMatching() && m.isDescriptionMatching() && m.isTypeMatching());
        return new Status(owner, current == null || current.getVersion() == null ? "none" : "V" + current.getVersion(),
                info.pending().length, newer, upToDate && info.all().length > 0);
    }

    private Flyway flyway(Owner owner) {
        String schema = owner.schema();
        return Flyway.configure(owner.classLoader())
                .dataSource(dataSource)
                .schemas(schema)
                .defaultSchema(schema)
                .createSchemas(true)
                .table(HISTORY_TABLE)
                .locations("classpath:db/migration/" + owner.id())
                .placeholders(PLACEHOLDERS)
                .failOnMissingLocations(false)
                .callbacks(new NoticesOff())
                .load();
    }

    /** The advisory lock that the tenant role's grants run under: "lnpgrant". */
    private static final long GRANTS_LOCK = 0x6c6e706772616e74L;

    /** Request transactions run as {@link #TENANT_ROLE}; it gets plain DML on each migrated schema. */
    private void grantToTenantRole(List<String> schemas) {
        List<String> quoted = schemas.stream().map(schema -> "\"" + schema.replace("\"", "\"\"") + "\"").toList();
        String inSchemas = String.join(", ", quoted);
        // One round trip: pgjdbc sends the statements together, and they run as one implicit transaction, which
        // holds the lock to its end. Nodes starting at once would otherwise fail: PostgreSQL rewrites a schema's
        // catalog row for every GRANT, even one that changes nothing, and two at once end in "tuple concurrently
        // updated" (SimultaneousStartTest).
        jdbi.useHandle(h -> h.execute(String.join(";\n",
                "SELECT pg_advisory_xact_lock(" + GRANTS_LOCK + ")",
                "GRANT USAGE ON SCHEMA " + inSchemas + " TO " + TENANT_ROLE,
                "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + inSchemas + " TO " + TENANT_ROLE,
                "GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA " + inSchemas + " TO " + TENANT_ROLE,
                "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA " + inSchemas + " TO " + TENANT_ROLE,
                "REVOKE ALL ON " + String.join(", ", quoted.stream().map(q -> q + ".flyway_history").toList())
                        + " FROM " + TENANT_ROLE)));
    }

    /**
     * Every table of a plugin's schema that has a {@code workspace_id} column must have row-level security
     * enabled, forced, and at least one policy. Returns the tables that do not.
     */
    public List<String> tablesWithoutRowLevelSecurity(String schema) {
        return tablesWithoutRowLevelSecurity(List.of(schema)).getOrDefault(schema, List.of());
    }

    /** As {@link #tablesWithoutRowLevelSecurity(String)}, for several schemas at once: per schema, its tables. */
    private Map<String, List<String>> tablesWithoutRowLevelSecurity(List<String> schemas) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT n.nspname, c.relname
                          FROM pg_class c
                          JOIN pg_namespace n ON n.oid = c.relnamespace
                         WHERE n.nspname = ANY(CAST(:schemas AS text[]))
                           AND c.relkind IN ('r', 'p')
                           AND EXISTS (SELECT 1 FROM pg_attribute a
                                        WHERE a.attrelid = c.oid AND a.attname = 'workspace_id' AND NOT a.attisdropped)
                           AND NOT (c.relrowsecurity AND c.relforcerowsecurity
                                    AND EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid))
                         ORDER BY n.nspname, c.relname
                        """)
                .bindArray("schemas", String.class, schemas)
                .map((row, context) -> Map.entry(row.getString("nspname"), row.getString("relname")))
                .collect(java.util.stream.Collectors.groupingBy(Map.Entry::getKey,
                        java.util.stream.Collectors.mapping(Map.Entry::getValue, java.util.stream.Collectors.toList()))));
    }
}
