/**
 * The MCP endpoint's OAuth 2.1 authorization server, a subsystem of the kernel: discovery (RFC 9728, RFC 8414),
 * dynamic client registration (RFC 7591), the authorization code flow with PKCE and the person's consent, the token
 * endpoint with rotated refresh tokens, revocation (RFC 7009), the grants' pages, and the internal API's
 * {@code DelegatedTokens}, through which the kernel admits an access token as the key of the grant's connection. The
 * kernel finds it through {@link dev.lnp.api.internal.subsystem.Subsystem}; nothing in the kernel depends on it.
 */
module lnp.platform.oauth {
    requires lnp.platform.api.internal;

    provides dev.lnp.api.internal.subsystem.Subsystem with dev.lnp.oauth.OAuthSubsystem;
}
