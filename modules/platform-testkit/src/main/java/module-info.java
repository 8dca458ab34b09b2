/** JUnit 5 support for testing the platform and plugins against a real PostgreSQL over real HTTP. */
module lnp.platform.testkit {
    requires transitive lnp.platform.core;
    requires transitive lnp.platform.api;
    requires transitive org.junit.jupiter.api;
    requires transitive java.net.http;
    requires java.sql;
    requires org.postgresql.jdbc;
    requires testcontainers;
    requires jdk.httpserver;

    exports dev.lnp.testkit;
}
