/**
 * The web server's listeners and their protection, a layer below the kernel: caps on the connections a listener and
 * a client address hold, deadlines for a new connection's first request line and for reading a request, the
 * server's own problem+json answers to what it cannot read, HTTP/1.0 on the health routes, a listener that stops on
 * its own, health under {@code /observe} and the management listener's metrics. The kernel routes the public
 * listener ({@link dev.lnp.server.Listeners.Routes}) and passes the configuration's values in; nothing here knows the
 * kernel.
 */
module lnp.platform.server {
    requires lnp.platform.api; // Json and the problem type base of the server's own problem+json answers
    requires transitive io.helidon.webserver;
    requires transitive io.helidon.health; // the health checks the kernel hands to Listeners.start
    requires io.helidon.webserver.observe;
    requires io.helidon.webserver.observe.health;
    requires java.logging; // Helidon's connection and listener loggers (ConnectionRules, ListenerFailures)

    // The kernel starts the listeners; the operator CLI warms the server up before the kernel loads.
    exports dev.lnp.server to lnp.platform.core, lnp.platform.cli;
}
