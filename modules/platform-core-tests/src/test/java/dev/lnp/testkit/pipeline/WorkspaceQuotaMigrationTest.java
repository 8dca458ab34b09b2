package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.database.migrations.Migrations;
import dev.lnp.testkit.TestDatabases;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** The CRM quota used to be a column of the workspace; upgrading keeps every workspace's own limit. */
class WorkspaceQuotaMigrationTest {

    private String url;
    private PGSimpleDataSource dataSource;

    @BeforeEach
    void database() {
        url = TestDatabases.createDatabase("quotamigration");
        dataSource = new PGSimpleDataSource();
        dataSource.setUrl(url);
        dataSource.setUser(TestDatabases.server().user());
        dataSource.setPassword(TestDatabases.server().password());
    }

    @AfterEach
    void drop() {
        TestDatabases.dropDatabase(url);
    }

    @Test
    void aWorkspacesCrmQuotaBecomesItsOwnLimitOfTheCrmQuota() {
        // The core's schema as the last release left it (before plugins declared their quotas): its V6 and V8 were
        // the webhooks' scripts, the webhooks module's now (test/resources db/migration/webhooks-as-core-released).
        Flyway.configure(Migrations.class.getClassLoader()).dataSource(dataSource).schemas("lnp_core")
                .defaultSchema("lnp_core").createSchemas(true).table("flyway_history")
                .locations("classpath:db/migration/lnp-core", "classpath:db/migration/webhooks-as-core-released")
                .placeholders(Map.of("tenant_role", Migrations.TENANT_ROLE))
                .target("8").load().migrate();
        Jdbi jdbi = Jdbi.create(dataSource);
        UUID limited = workspace(jdbi, "limited", 250L);
        UUID unlimited = workspace(jdbi, "default", null);
        UUID none = workspace(jdbi, "none", 0L);

        new Migrations(dataSource, jdbi).migrateCore();

        List<String> rows = jdbi.withHandle(h -> h.createQuery(
                        "SELECT workspace_id || ' ' || quota || ' ' || monthly FROM lnp_core.workspace_quotas ORDER BY monthly")
                .mapTo(String.class).list());
        assertEquals(List.of(none + " crm 0", limited + " crm 250"), rows, "no row for " + unlimited);
        assertEquals(0L, (long) jdbi.withHandle(h -> h.createQuery("""
                        SELECT count(*) FROM information_schema.columns
                         WHERE table_schema = 'lnp_core' AND table_name = 'workspaces' AND column_name LIKE '%crm%'
                        """).mapTo(Long.class).one()), "the core keeps no CRM column");
    }

    private static UUID workspace(Jdbi jdbi, String name, Long crmQuota) {
        return jdbi.withHandle(h -> h.createQuery("""
                        INSERT INTO lnp_core.workspaces (name, owner_email, crm_quota_monthly)
                        VALUES (:name, 'owner@example.com', :quota) RETURNING id
                        """)
                .bind("name", name).bindByType("quota", crmQuota, Long.class).mapTo(UUID.class).one());
    }
}
