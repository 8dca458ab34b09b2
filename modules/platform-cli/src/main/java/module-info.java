/**
 * The operator command line, {@code bin/platform}'s main class: it builds the configuration, starts the kernel
 * ({@code serve}) or runs an operator command against the deployment's database. Nothing depends on it but the
 * testkit, which runs operator commands in tests.
 */
module lnp.platform.cli {
    requires lnp.platform.core;
    requires lnp.platform.api;
    requires lnp.platform.api.internal; // what operator commands take from the subsystems (mailbox, sign-in links, templates)
    requires lnp.platform.server; // the web server's warm-up, started before the kernel loads (ServeCommand)
    requires lnp.platform.database; // the database's bootstrap and migrations (migrate, doctor, operator commands)
    requires lnp.platform.logging; // logging is set up before the kernel starts (ServeCommand)
    requires lnp.platform.embedded.postgres; // the default database, and backup and restore of it
    requires info.picocli;
    requires com.fasterxml.jackson.databind;
    requires org.jdbi.v3.core;
    requires jdk.unsupported; // sun.misc.Signal: a requested stop exits 0 (StopSignals)

    exports dev.lnp.cli to lnp.platform.testkit;

    opens dev.lnp.cli to info.picocli;
}
