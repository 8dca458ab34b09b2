/**
 * The kernel: boot, configuration, HTTP pipeline, authentication, tenancy and transactions, registry, plugins. The
 * operator CLI, the subsystems and the embedded PostgreSQL are modules of their own; the subsystems among them
 * are found through the internal API's Subsystem seam. The JSON machinery (list pages, the column codec, schema
 * derivations and validation) is the library lnp.platform.json below the kernel, the listeners and their
 * protection the module lnp.platform.server, the database plumbing (pools, migrations, LISTEN/NOTIFY) the module
 * lnp.platform.database and the structured logging lnp.platform.logging.
 */
module lnp.platform.core {
    requires lnp.platform.api;
    requires lnp.platform.pages; // the registrar records the plugins' pages (PageRegistrar)
    requires lnp.platform.api.internal;
    requires lnp.platform.json; // request bodies and tool arguments validated against their JSON Schemas
    requires lnp.platform.server; // the listeners and their protection: the kernel routes the public one
    requires lnp.platform.database; // the pools, the outage, the transaction's opening, migrations, LISTEN/NOTIFY
    requires lnp.platform.logging; // a request's fields on the log lines written while it is served

    requires io.helidon.webserver;
    requires io.helidon.health;
    requires org.yaml.snakeyaml;
    requires micrometer.core;
    requires micrometer.registry.prometheus;
    requires io.helidon.logging.jul;

    requires java.sql;
    requires java.management; // the JVM's start time for the start-up phases (StartupPhases)
    requires com.zaxxer.hikari;
    requires org.pf4j;
    requires dev.failsafe.core; // the deadlock retry of a request's transaction (TransactionStep)

    uses dev.lnp.api.PlatformPlugin;

    // Plugins never see the kernel: they compile against lnp.platform.api (and first-party ones the internal API).
    // Each package is exported only to the modules that need it, one line per package; packages not listed here
    // are the kernel's alone. The operator CLI (the launcher's main class) starts the kernel and runs operator
    // commands against its database; the testkit boots a platform and makes keys for tests; the subsystems reach
    // the kernel only through lnp.platform.api.internal.
    exports dev.lnp.core to lnp.platform.cli, lnp.platform.testkit;
    exports dev.lnp.core.auth to lnp.platform.cli, lnp.platform.testkit, com.fasterxml.jackson.databind; // `key list --json` writes its records
    exports dev.lnp.core.config to lnp.platform.cli, lnp.platform.testkit;
    exports dev.lnp.core.http to lnp.platform.cli;
    exports dev.lnp.core.plugins to lnp.platform.cli, lnp.platform.testkit;
    exports dev.lnp.core.tenancy to lnp.platform.cli, lnp.platform.testkit;
    exports dev.lnp.core.tools to lnp.platform.testkit;
}
