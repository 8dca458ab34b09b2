package dev.lnp.testkit.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.database.migrations.Migrations;
import dev.lnp.testkit.TestDatabases;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The webhooks' tables were the core's migrations (its V6, V8 and V13_20) and are the webhooks module's now. A fresh
 * database and one the previous release migrated (all of it, or only up to V7) end in the same schema, keep their
 * rows, and are up to date for every owner afterwards. The previous release's scripts are the core's scripts plus
 * the three of test/resources db/migration/webhooks-as-core-released, byte for byte as it shipped them.
 */
class WebhookTablesTakeOverTest {

    private final List<String> databases = new ArrayList<>();

    @AfterEach
    void drop() {
        databases.forEach(TestDatabases::dropDatabase);
    }

    @Test
    void aFreshDatabaseAndOnesThePreviousReleaseMigratedEndInTheSameSchema() {
        PGSimpleDataSource fresh = database("hooksfresh");
        PGSimpleDataSource upgraded = database("hooksupgraded");
        PGSimpleDataSource fromV7 = database("hooksfromv7");
        migrateAsReleased(upgraded, "13.37");
        migrateAsReleased(fromV7, "7");
        UUID subscription = subscription(Jdbi.create(upgraded));

        for (PGSimpleDataSource database : List.of(fresh, upgraded, fromV7)) {
            start(database);
        }

        assertEquals(schema(fresh), schema(upgraded));
        assertEquals(schema(fresh), schema(fromV7));
        assertEquals(List.of("6 webhooks", "8 subscriptions deliver from creation",
                "13.20 compatible outbox wakes from nodes"), history(fresh));
        assertEquals(List.of("13.20 taken over from lnp-core"), history(upgraded));
        assertEquals(List.of("6 taken over from lnp-core", "8 subscriptions deliver from creation",
                "13.20 compatible outbox wakes from nodes"), history(fromV7));
        assertEquals(1L, (long) Jdbi.create(upgraded).withHandle(h -> h.createQuery(
                        "SELECT count(*) FROM lnp_core.webhook_subscriptions WHERE id = :id")
                .bind("id", subscription).mapTo(Long.class).one()));

        for (PGSimpleDataSource database : List.of(fresh, upgraded, fromV7)) {
            var migrations = new Migrations(database, Jdbi.create(database));
            assertTrue(migrations.status(Migrations.Owner.core()).upToDate(), "the core's history");
            migrations.subsystems().forEach(subsystem -> assertTrue(migrations.status(subsystem.owner()).upToDate(),
                    subsystem.owner().id()));
            // A restart finds nothing to do, and a second look changes nothing either.
            start(database);
        }
        assertEquals(schema(fresh), schema(upgraded));
        assertEquals(List.of("13.20 taken over from lnp-core"), history(upgraded));
    }

    @Test
    void aPlatformWithoutTheModuleThatTookTheCoresMigrationsOverRefusesToStartNamingThem() {
        PGSimpleDataSource upgraded = database("hookswithout");
        migrateAsReleased(upgraded, "13.37");

        var withoutWebhooks = new Migrations(upgraded, Jdbi.create(upgraded), List.of());
        var refused = assertThrows(IllegalStateException.class,
                () -> withoutWebhooks.prepareCore(withoutWebhooks.readCoreStatus()));
        assertTrue(refused.getMessage().contains("V6 webhooks") && refused.getMessage().contains("lib/"),
                refused.getMessage());
        assertThrows(IllegalStateException.class, withoutWebhooks::migrateCore);
    }

    private PGSimpleDataSource database(String name) {
        String url = TestDatabases.createDatabase(name);
        databases.add(url);
        var dataSource = new PGSimpleDataSource();
        dataSource.setUrl(url);
        dataSource.setUser(TestDatabases.server().user());
        dataSource.setPassword(TestDatabases.server().password());
        return dataSource;
    }

    /** The core's history as the previous release wrote it, up to {@code target}. */
    private static void migrateAsReleased(PGSimpleDataSource dataSource, String target) {
        Flyway.configure(Migrations.class.getClassLoader()).dataSource(dataSource).schemas("lnp_core")
                .defaultSchema("lnp_core").createSchemas(true).table("flyway_history")
                .locations("classpath:db/migration/lnp-core", "classpath:db/migration/webhooks-as-core-released")
                .placeholders(Map.of("tenant_role", Migrations.TENANT_ROLE))
                .target(target).load().migrate();
    }

    /** What a start does before the plugins' migrations. */
    private static void start(PGSimpleDataSource dataSource) {
        var migrations = new Migrations(dataSource, Jdbi.create(dataSource));
        migrations.prepareCore(migrations.readCoreStatus());
        migrations.prepareSubsystems();
    }

    private static UUID subscription(Jdbi jdbi) {
        return jdbi.withHandle(h -> {
            UUID workspace = h.createQuery("INSERT INTO lnp_core.workspaces (name, owner_email) VALUES ('w', "
                    + "'owner@example.com') RETURNING id").mapTo(UUID.class).one();
            return h.createQuery("""
                            INSERT INTO lnp_core.webhook_subscriptions (workspace_id, url, events, created_at, updated_at)
                            VALUES (:ws, 'https://example.com/hook', '{*}', now(), now()) RETURNING id
                            """)
                    .bind("ws", workspace).mapTo(UUID.class).one();
        });
    }

    private static List<String> history(PGSimpleDataSource dataSource) {
        return Jdbi.create(dataSource).withHandle(h -> h.createQuery("""
                        SELECT version || ' ' || description FROM lnp_webhooks.flyway_history
                         WHERE success AND version IS NOT NULL ORDER BY installed_rank
                        """).mapTo(String.class).list());
    }

    /** Every object of the platform's schemas as the catalog describes it, but what tells two databases apart. */
    private static List<String> schema(PGSimpleDataSource dataSource) {
        return Jdbi.create(dataSource).withHandle(h -> h.createQuery("""
                        WITH core AS (SELECT oid FROM pg_namespace WHERE nspname = 'lnp_core')
                        SELECT 'schema ' || nspname || ' ' || coalesce(nspacl::text, '') FROM pg_namespace
                         WHERE nspname LIKE 'lnp%'
                        UNION ALL
                        SELECT 'relation ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text || ' rls '
                               || c.relrowsecurity || ' forced ' || c.relforcerowsecurity || ' '
                               || coalesce(c.relacl::text, '')
                          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname LIKE 'lnp%'
                        UNION ALL
                        SELECT 'column ' || table_schema || '.' || table_name || '.' || column_name || ' #'
                               || ordinal_position || ' ' || data_type || ' ' || is_nullable || ' '
                               || coalesce(column_default, '')
                          FROM information_schema.columns WHERE table_schema LIKE 'lnp%'
                        UNION ALL
                        SELECT 'column grant ' || a.attrelid::regclass || '.' || a.attname || ' ' || a.attacl::text
                          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                         WHERE a.attacl IS NOT NULL AND c.relnamespace = (SELECT oid FROM core)
                        UNION ALL
                        SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
                          FROM pg_constraint WHERE connamespace = (SELECT oid FROM core)
                        UNION ALL
                        SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname LIKE 'lnp%'
                        UNION ALL
                        SELECT 'policy ' || tablename || ' ' || policyname || ' ' || array_to_string(roles, ',') || ' '
                               || cmd || ' ' || coalesce(qual, '') || ' ' || coalesce(with_check, '')
                          FROM pg_policies WHERE schemaname LIKE 'lnp%'
                        UNION ALL
                        SELECT 'trigger ' || pg_get_triggerdef(t.oid) FROM pg_trigger t
                          JOIN pg_class c ON c.oid = t.tgrelid
                         WHERE NOT t.tgisinternal AND c.relnamespace = (SELECT oid FROM core)
                        UNION ALL
                        SELECT 'function ' || p.oid::regprocedure || ' ' || md5(pg_get_functiondef(p.oid)) || ' '
                               || coalesce(p.proacl::text, '')
                          FROM pg_proc p WHERE p.pronamespace = (SELECT oid FROM core)
                        ORDER BY 1
                        """).mapTo(String.class).list());
    }
}
