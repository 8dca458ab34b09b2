/**
 * The kernel: boot, configuration, HTTP pipeline, authentication, tenancy, registry, database, plugins. The operator
 * CLI, mail, the console, webhooks and the embedded PostgreSQL are modules of their own; the subsystems among them
 * are found through the internal API's Subsystem seam.
 */
module lnp.platform.core {
    requires lnp.platform.api;
    requires lnp.platform.api.internal;

    requires io.helidon.webserver;
    requires io.helidon.webserver.observe;
    requires io.helidon.webserver.observe.health;
    requires io.helidon.health;
    requires org.yaml.snakeyaml;
    requires micrometer.core;
    requires micrometer.registry.prometheus;
    requires io.helidon.logging.jul;

    requires java.sql;
    requires java.logging;
    requires java.management; // the JVM's start time for the start-up phases (StartupPhases)
    requires com.zaxxer.hikari;
    requires org.postgresql.jdbc;
    requires flyway.core;
    requires flyway.database.postgresql;
    requires org.pf4j;
    requires org.slf4j;
    requires com.networknt.schema;
    requires com.nimbusds.jose.jwt;
    requires dev.failsafe.core; // the deadlock retry of a request's transaction (TransactionStep)

    uses dev.lnp.api.PlatformPlugin;
    uses dev.lnp.core.db.EmbeddedDatabase.Launcher; // lnp.platform.embedded.postgres, when no database URL is set

    // Plugins never see the kernel: they compile against lnp.platform.api (and first-party ones the internal API).
    // Each package is exported only to the modules that need it, one line per package; packages not listed here
    // are the kernel's alone. The operator CLI (the launcher's main class) starts the kernel and runs operator
    // commands against its database; the testkit boots a platform and makes keys for tests; the subsystems (mail,
    // the console, webhooks) reach the kernel only through lnp.platform.api.internal.
    exports dev.lnp.core to lnp.platform.cli, lnp.platform.testkit;
    exports dev.lnp.core.auth to lnp.platform.cli, lnp.platform.testkit, com.fasterxml.jackson.databind; // `key list --json` writes its records
    exports dev.lnp.core.config to lnp.platform.cli, lnp.platform.testkit;
    exports dev.lnp.core.db to lnp.platform.cli, lnp.platform.embedded.postgres, lnp.platform.testkit;
    exports dev.lnp.core.http to lnp.platform.cli;
    exports dev.lnp.core.logging to lnp.platform.cli;
    exports dev.lnp.core.plugins to lnp.platform.cli, lnp.platform.testkit;
    exports dev.lnp.core.tenancy to lnp.platform.cli, lnp.platform.testkit;
    exports dev.lnp.core.tools to lnp.platform.testkit;

    // Rows and columns as plugins read, bind and write them, and schemas as they derive them: the API finds these
    // with ServiceLoader.
    provides dev.lnp.api.sql.RowCodec with dev.lnp.core.rows.PlatformRowCodec;
    provides dev.lnp.api.http.JsonSchemaRules with dev.lnp.core.schemas.PlatformJsonSchemaRules;
}
