/**
 * The kernel: boot, configuration, HTTP pipeline, authentication, tenancy, registry, database, plugins, CLI. Mail, the
 * console and webhooks are subsystems in modules of their own, found through the internal API's Subsystem seam.
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
    requires jdk.unsupported; // sun.misc.Signal: a requested stop exits 0 (dev.lnp.core.cli.StopSignals)
    requires com.zaxxer.hikari;
    requires org.postgresql.jdbc;
    requires flyway.core;
    requires flyway.database.postgresql;
    requires org.pf4j;
    requires org.slf4j;
    requires info.picocli;
    requires com.networknt.schema;
    requires org.apache.commons.compress;
    requires org.tukaani.xz;
    requires com.nimbusds.jose.jwt;
    requires dev.failsafe.core; // the deadlock retry of a request's transaction (TransactionStep)

    uses dev.lnp.api.PlatformPlugin;

    // Plugins never see the kernel: they compile against lnp.platform.api (and first-party ones the internal API).
    // Each package is exported only to the modules that need it, one line per package; packages not listed here
    // are the kernel's alone. The testkit boots a platform, runs the operator CLI and makes keys for tests; the
    // subsystems (mail, the console, webhooks) reach the kernel only through lnp.platform.api.internal.
    exports dev.lnp.core to lnp.platform.testkit;
    exports dev.lnp.core.auth to lnp.platform.testkit, com.fasterxml.jackson.databind; // `key list --json` writes its records
    exports dev.lnp.core.cli to lnp.platform.testkit;
    exports dev.lnp.core.config to lnp.platform.testkit;
    exports dev.lnp.core.db to lnp.platform.testkit;
    exports dev.lnp.core.plugins to lnp.platform.testkit;
    exports dev.lnp.core.tenancy to lnp.platform.testkit;
    exports dev.lnp.core.tools to lnp.platform.testkit;

    // Rows and columns as plugins read, bind and write them, and schemas as they derive them: the API finds these
    // with ServiceLoader.
    provides dev.lnp.api.sql.RowCodec with dev.lnp.core.rows.PlatformRowCodec;
    provides dev.lnp.api.JsonSchemaRules with dev.lnp.core.schemas.PlatformJsonSchemaRules;

    opens dev.lnp.core.cli to info.picocli;
}
