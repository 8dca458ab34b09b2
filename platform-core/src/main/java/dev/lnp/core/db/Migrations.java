package dev.lnp.core.db;

import java.util.List;
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

    private final DataSource dataSource;
    private final Jdbi jdbi;

    public Migrations(DataSource dataSource, Jdbi jdbi) {
        this.dataSource = dataSource;
        this.jdbi = jdbi;
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

    /** Starts reading the core's history on a thread of its own, for {@link #prepareCore(Future)}: a start reads
     * it while the plugins register. */
    public Future<Status> readCoreStatus() {
        var read = new java.util.concurrent.FutureTask<>(() -> status(Owner.core()));
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
        }
    }

    /**
     * As {@link #prepareCore(Future)}, for the plugins' schemas, in the given (dependency) order. The histories are
     * read concurrently (as many at once as the pool allows, see {@link #concurrentReads()}), since that read is
     * most of a restart's time here and the owners are independent; migrating, when needed, stays one owner after
     * the other. The tenant role's grants and the row-level security check of {@link #migrateProtectedPlugin} apply
     * on every start (for an up-to-date schema in the same concurrent task).
     */
    public void preparePlugins(List<Owner> owners) {
        List<Status> statuses;
        var connections = new java.util.concurrent.Semaphore(concurrentReads());
        try (var readers = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Status>> reads = owners.stream().map(owner -> readers.submit(() -> {
                connections.acquire();
                try {
                    Status status = status(owner);
                    if (status.upToDate()) {
                        protect(owner);
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
                protect(status.owner());
            }
        }
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

    /** The tenant role's grants on a migrated plugin schema, and the refusal of one without row-level security. */
    private void protect(Owner owner) {
        grantToTenantRole(owner.schema());
        requireRowLevelSecurity(owner.id(), owner.schema());
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
        protect(owner);
    }

    private void requireRowLevelSecurity(String pluginId, String schema) {
        List<String> unprotected = tablesWithoutRowLevelSecurity(schema);
        if (!unprotected.isEmpty()) {
            throw new IllegalStateException("Plugin " + pluginId + " has workspace tables without "
                    + "row-level security (enabled, forced, with a policy): " + unprotected);
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
                .table("flyway_history")
                .locations("classpath:db/migration/" + owner.id())
                .placeholders(java.util.Map.of("tenant_role", TENANT_ROLE))
                .failOnMissingLocations(false)
                .load();
    }

    /** Request transactions run as {@link #TENANT_ROLE}; it gets plain DML on each migrated schema. */
    private void grantToTenantRole(String schema) {
        String quoted = "\"" + schema.replace("\"", "\"\"") + "\"";
        // One round trip: pgjdbc sends the five statements together.
        jdbi.useHandle(h -> h.execute(String.join(";\n",
                "GRANT USAGE ON SCHEMA " + quoted + " TO " + TENANT_ROLE,
                "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + quoted + " TO " + TENANT_ROLE,
                "GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA " + quoted + " TO " + TENANT_ROLE,
                "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA " + quoted + " TO " + TENANT_ROLE,
                "REVOKE ALL ON " + quoted + ".flyway_history FROM " + TENANT_ROLE)));
    }

    /**
     * Every table of a plugin's schema that has a {@code workspace_id} column must have row-level security
     * enabled, forced, and at least one policy. Returns the tables that do not.
     */
    public List<String> tablesWithoutRowLevelSecurity(String schema) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT c.relname
                          FROM pg_class c
                          JOIN pg_namespace n ON n.oid = c.relnamespace
                         WHERE n.nspname = :schema
                           AND c.relkind IN ('r', 'p')
                           AND EXISTS (SELECT 1 FROM pg_attribute a
                                        WHERE a.attrelid = c.oid AND a.attname = 'workspace_id' AND NOT a.attisdropped)
                           AND NOT (c.relrowsecurity AND c.relforcerowsecurity
                                    AND EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid))
                         ORDER BY c.relname
                        """)
                .bind("schema", schema)
                .mapTo(String.class)
                .list());
    }
}
