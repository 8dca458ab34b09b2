/**
 * The outbound address guard, a subsystem of the kernel: the public API's {@code OutboundGuard}, which keeps
 * requests to addresses people give (webhook receivers, a chat widget's language model) away from the deployment's
 * own networks and connects to the very address it checked. The kernel finds it through
 * {@link dev.lnp.api.internal.subsystem.Subsystem}; nothing depends on this module.
 */
module lnp.platform.outbound {
    requires lnp.platform.api.internal;
    requires io.helidon.webclient.api;
    requires io.helidon.webclient.http1;
    requires io.helidon.common.buffers;

    provides dev.lnp.api.internal.subsystem.Subsystem with dev.lnp.outbound.OutboundSubsystem;
}
