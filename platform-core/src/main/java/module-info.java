/** The kernel: boot, configuration, HTTP pipeline, authentication, tenancy, registry, database, plugins, CLI. */
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
    requires dev.failsafe.core;
    requires jakarta.mail;
    requires org.eclipse.angus.mail;
    requires gg.jte.runtime;
    requires com.nimbusds.jose.jwt;

    uses dev.lnp.api.PlatformPlugin;
    uses dev.lnp.core.Subsystem; // first-party parts in modules of their own (lnp.platform.webhooks)

    // Plugins never see the kernel: they compile against lnp.platform.api (and first-party ones the internal API).
    // Each package is exported only to the modules that need it, one line per package; packages not listed here
    // are the kernel's alone. The testkit boots a platform, runs the operator CLI and makes keys for tests; the
    // webhooks subsystem registers through the kernel's registrar and console and uses its database and mail.
    exports dev.lnp.core to lnp.platform.testkit, lnp.platform.webhooks;
    exports dev.lnp.core.auth to lnp.platform.testkit, com.fasterxml.jackson.databind; // `key list --json` writes its records
    exports dev.lnp.core.cli to lnp.platform.testkit;
    exports dev.lnp.core.config to lnp.platform.testkit, lnp.platform.webhooks;
    exports dev.lnp.core.console to lnp.platform.webhooks;
    exports dev.lnp.core.db to lnp.platform.testkit, lnp.platform.webhooks;
    exports dev.lnp.core.events to lnp.platform.webhooks; // the outbox wakes' channel and payload (OutboxWakes)
    exports dev.lnp.core.http to lnp.platform.webhooks;
    exports dev.lnp.core.mail to lnp.platform.webhooks;
    exports dev.lnp.core.metrics to lnp.platform.webhooks;
    exports dev.lnp.core.plugins to lnp.platform.testkit, lnp.platform.webhooks;
    exports dev.lnp.core.tenancy to lnp.platform.testkit;
    exports dev.lnp.core.tools to lnp.platform.testkit;
    exports dev.lnp.core.validation to lnp.platform.webhooks;

    // Rows and columns as plugins read, bind and write them, and schemas as they derive them: the API finds these
    // with ServiceLoader.
    provides dev.lnp.api.sql.RowCodec with dev.lnp.core.rows.PlatformRowCodec;
    provides dev.lnp.api.JsonSchemaRules with dev.lnp.core.schemas.PlatformJsonSchemaRules;

    opens dev.lnp.core.cli to info.picocli;
    // The precompiled console templates are looked up and called by reflection from the JTE runtime: every package
    // that holds one (each template subfolder is a package of its own) is opened to it, or the template fails on the
    // module path of the release image only. TemplatePackagesAreOpenTest fails when one is missing.
    opens dev.lnp.core.console.view to gg.jte.runtime;
    opens dev.lnp.core.console.view.mail to gg.jte.runtime; // the HTML part of sign-in and invitation mail
    opens dev.lnp.core.console.text to gg.jte.runtime;
}
