/** The kernel: boot, configuration, HTTP pipeline, authentication, tenancy, registry, database, plugins, CLI. */
module lnp.platform.core {
    requires lnp.platform.api;

    requires io.helidon.webserver;
    requires io.helidon.webserver.observe;
    requires io.helidon.webserver.observe.health;
    requires io.helidon.health;
    requires io.helidon.config;
    requires io.helidon.config.yaml;
    requires micrometer.core;
    requires micrometer.registry.prometheus;
    requires io.helidon.logging.jul;

    requires java.sql;
    requires java.logging;
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

    exports dev.lnp.core;
    exports dev.lnp.core.config;
    exports dev.lnp.core.db;
    exports dev.lnp.core.plugins;
    exports dev.lnp.core.http;
    exports dev.lnp.core.auth;
    exports dev.lnp.core.cli;
    exports dev.lnp.core.tenancy;
    exports dev.lnp.core.tools;
    exports dev.lnp.core.validation;
    exports dev.lnp.core.limits;
    exports dev.lnp.core.metrics;
    exports dev.lnp.core.logging to lnp.platform.testkit;
    exports dev.lnp.core.mail;
    exports dev.lnp.core.tokens;
    exports dev.lnp.core.events;

    exports dev.lnp.core.console;

    opens dev.lnp.core.cli to info.picocli;
    // The precompiled console templates are looked up and called by reflection from the JTE runtime.
    opens dev.lnp.core.console.view to gg.jte.runtime;
    opens dev.lnp.core.console.text to gg.jte.runtime;
}
