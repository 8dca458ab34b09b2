/**
 * The platform's structured logging, a layer below the kernel: java.util.logging (Helidon's, and SLF4J's through its
 * JUL binding) to standard error, readable lines on a terminal and JSON lines otherwise, with the fields of the
 * request being served. Knows nothing of the kernel.
 */
module lnp.platform.logging {
    requires lnp.platform.api; // Json, which writes the JSON lines
    requires transitive java.logging;
    requires org.slf4j; // bound on the starting thread (Logging.configure)

    // The operator CLI sets logging up before the kernel starts; the kernel puts a request's fields on its lines.
    exports dev.lnp.logging to lnp.platform.core, lnp.platform.cli;
}
