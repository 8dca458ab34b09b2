package dev.lnp.core.db;

import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.jdbi.v3.core.Jdbi;

/**
 * Runs the core's and each plugin's Flyway migrations. Every owner has its own schema, its own script
 * location ({@code db/migration/<owner>}) read through its own class loader, and its own history table, so
 * plugins can be added, removed and upgraded independently.
 */
public final class Migrations {

    /** The role requests run as, so that row-level security applies even when the pool connects as superuser. */
    public static final String TENANT_ROLE = "lnp_tenant";

    private final DataSource dataSource;
    private final Jdbi jdbi;

    public Migrations(DataSource dataSource, Jdbi jdbi) {
        this.dataSource = dataSource;
        this.jdbi = jdbi;
    }

    public static final String CORE_SCHEMA = "lnp_core";

    /** The core's own tables; its scripts grant the tenant role exactly what requests need. */
    public void migrateCore() {
        // Not a legal package name, so the scripts stay readable from inside this named module.
        flyway("lnp-core", CORE_SCHEMA, Migrations.class.getClassLoader());
    }

    /** A plugin's tables; the tenant role gets plain DML on the whole schema. */
    public void migratePlugin(String pluginId, String schema, ClassLoader classLoader) {
        flyway(pluginId, schema, classLoader);
        grantToTenantRole(schema);
    }

    private void flyway(String owner, String schema, ClassLoader classLoader) {
        Flyway.configure(classLoader)
                .dataSource(dataSource)
                .schemas(schema)
                .defaultSchema(schema)
                .createSchemas(true)
                .table("flyway_history")
                .locations("classpath:db/migration/" + owner)
                .placeholders(java.util.Map.of("tenant_role", TENANT_ROLE))
                .failOnMissingLocations(false)
                .load()
                .migrate();
    }

    /** Request transactions run as {@link #TENANT_ROLE}; it gets plain DML on each migrated schema. */
    private void grantToTenantRole(String schema) {
        String quoted = "\"" + schema.replace("\"", "\"\"") + "\"";
        jdbi.useHandle(h -> {
            h.execute("GRANT USAGE ON SCHEMA " + quoted + " TO " + TENANT_ROLE);
            h.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + quoted + " TO " + TENANT_ROLE);
            h.execute("GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA " + quoted + " TO " + TENANT_ROLE);
            h.execute("GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA " + quoted + " TO " + TENANT_ROLE);
            h.execute("REVOKE ALL ON " + quoted + ".flyway_history FROM " + TENANT_ROLE);
        });
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
