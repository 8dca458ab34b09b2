/**
 * Signed tokens, a subsystem of the kernel: the signing key ring (ES256 keys in PostgreSQL, rotated, one node
 * creating the next) and the internal API's {@code SessionTokens} on it, which first-party plugins (the chatbot's
 * widget sessions) issue and verify. The kernel finds it through {@link dev.lnp.api.internal.subsystem.Subsystem};
 * nothing in the kernel depends on this module.
 */
module lnp.platform.tokens {
    requires lnp.platform.api.internal;
    requires com.nimbusds.jose.jwt;

    provides dev.lnp.api.internal.subsystem.Subsystem with dev.lnp.tokens.TokensSubsystem;
}
