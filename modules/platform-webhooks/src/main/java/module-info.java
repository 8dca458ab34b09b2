/**
 * Signed webhooks, a subsystem of the kernel: subscriptions and their routes, the event catalog, the dispatcher with
 * its delivery queue and sender (through the platform's outbound address guard), and its pages in the console (on the public page API, as a
 * plugin's are). The kernel finds it through
 * {@link dev.lnp.api.internal.subsystem.Subsystem}; nothing in the kernel depends on this module.
 */
module lnp.platform.webhooks {
    requires lnp.platform.api.internal;
    requires io.helidon.webserver;
    requires dev.failsafe.core;

    provides dev.lnp.api.internal.subsystem.Subsystem with dev.lnp.webhooks.subsystem.WebhooksSubsystem;

    exports dev.lnp.webhooks;
    exports dev.lnp.webhooks.signature; // the JDK-only verifiers a receiver written in Java may use
}
