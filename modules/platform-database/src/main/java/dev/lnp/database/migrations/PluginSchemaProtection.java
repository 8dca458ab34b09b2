package dev.lnp.database.migrations;

import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;

/**
 * What every start checks of the plugins' migrated schemas: the tenant role's grants on them, and the refusal of a
 * workspace table without row-level security (serving it would leak rows between workspaces).
 */
final class PluginSchemaProtection {

    /** The advisory lock that the tenant role's grants run under: "lnpgrant". */
    private static final long GRANTS_LOCK = 0x6c6e706772616e74L;

    private final Jdbi jdbi;

    PluginSchemaProtection(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /**
     * The tenant role's grants on migrated plugin schemas, and the refusal of one without row-level security; one
     * round trip for the grants and one for the check, however many schemas.
     */
    void protect(List<Migrations.Owner> owners) {
        if (owners.isEmpty()) {
            return;
        }
        List<String> schemas = owners.stream().map(Migrations.Owner::schema).toList();
        grantToTenantRole(schemas);
        Map<String, List<String>> unprotected = tablesWithoutRowLevelSecurity(schemas);
        for (Migrations.Owner owner : owners) {
            List<String> tables = unprotected.getOrDefault(owner.schema(), List.of());
            if (!tables.isEmpty()) {
                throw new IllegalStateException("Plugin " + owner.id() + " has workspace tables without "
                        + "row-level security (enabled, forced, with a policy): " + tables);
            }
        }
    }

    /** Request transactions run as {@link Migrations#TENANT_ROLE}; it gets plain DML on each migrated schema. */
    private void grantToTenantRole(List<String> schemas) {
        List<String> quoted = schemas.stream().map(schema -> "\"" + schema.replace("\"", "\"\"") + "\"").toList();
        String inSchemas = String.join(", ", quoted);
        String tenant = Migrations.TENANT_ROLE;
        // One round trip: pgjdbc sends the statements together, and they run as one implicit transaction, which
        // holds the lock to its end. Nodes starting at once would otherwise fail: PostgreSQL rewrites a schema's
        // catalog row for every GRANT, even one that changes nothing, and two at once end in "tuple concurrently
        // updated" (SimultaneousStartTest).
        jdbi.useHandle(h -> h.execute(String.join(";\n",
                "SELECT pg_advisory_xact_lock(" + GRANTS_LOCK + ")",
                "GRANT USAGE ON SCHEMA " + inSchemas + " TO " + tenant,
                "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + inSchemas + " TO " + tenant,
                "GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA " + inSchemas + " TO " + tenant,
                "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA " + inSchemas + " TO " + tenant,
                "REVOKE ALL ON " + String.join(", ", quoted.stream().map(q -> q + ".flyway_history").toList())
                        + " FROM " + tenant)));
    }

    /**
     * Every table of the schemas that has a {@code workspace_id} column must have row-level security enabled,
     * forced, and at least one policy. Returns, per schema, the tables that do not.
     */
    Map<String, List<String>> tablesWithoutRowLevelSecurity(List<String> schemas) {
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
