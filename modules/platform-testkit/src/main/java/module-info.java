/** JUnit 5 support for testing the platform and plugins against a real PostgreSQL over real HTTP. */
module lnp.platform.testkit {
    requires transitive lnp.platform.core;
    requires transitive lnp.platform.api;
    requires lnp.platform.database; // a booted platform's pool (TestPlatform.jdbi)
    requires lnp.platform.api.internal; // callTool goes through the tool gateway production uses
    requires lnp.platform.json; // OpenApiContract checks answers with the validator the platform applies
    // The platform a test boots is the one the distribution ships: the kernel with its subsystems.
    requires lnp.platform.webhooks;
    requires lnp.platform.mail;
    requires lnp.platform.web;
    requires lnp.platform.cli; // OperatorCli runs the operator commands in-process
    requires lnp.platform.embedded.postgres; // TestDatabases without LNP_TEST_DATABASE_URL
    requires transitive org.junit.jupiter.api;
    requires transitive java.net.http;
    requires java.sql;
    requires java.logging; // FuzzRecorder captures log records
    requires org.postgresql.jdbc;
    requires testcontainers;
    requires jdk.httpserver;
    // Only Browser uses Selenium, an optional dependency: a test that uses Browser brings selenium-java itself.
    requires static org.seleniumhq.selenium.api;
    requires static org.seleniumhq.selenium.chrome_driver;
    requires static org.seleniumhq.selenium.support;
    // Only MailCatcher uses GreenMail (and Jakarta Mail through it), optional in the same way.
    requires static greenmail;
    requires static jakarta.mail;

    exports dev.lnp.testkit;
}
