package dev.lnp.web.console;

import dev.lnp.api.internal.subsystem.DoctorCheck;
import java.time.Clock;

/**
 * {@code platform doctor}'s look at sign-in with the OpenID Connect provider: the {@code lnp.oidc.*} settings as the
 * server reads them at start, and the provider's discovery document, which every sign-in needs.
 */
final class OidcDoctorCheck implements DoctorCheck {

    @Override
    public void run(Context context, Report report) {
        OidcSettings settings;
        try {
            var configured = OidcSettings.from(context.config());
            if (configured.isEmpty()) {
                report.ok("sign-in", "by e-mailed link only (no lnp.oidc.issuer)");
                return;
            }
            settings = configured.get();
        } catch (IllegalArgumentException e) {
            report.fail("sign-in", e.getMessage(), "fix that lnp.oidc.* setting (docs/identity.md)");
            return;
        }
        try {
            var metadata = new OidcProvider(settings, Clock.systemUTC()).metadata();
            report.ok("sign-in", "with " + settings.displayName() + " at " + settings.issuer() + " (authorization at "
                    + metadata.getAuthorizationEndpointURI() + (metadata.getEndSessionEndpointURI() == null
                            ? "; it offers no end_session_endpoint, so signing out ends the session here only)"
                            : ")"));
        } catch (OidcProvider.Unavailable e) {
            report.fail("sign-in", settings.displayName() + " cannot be used: " + e.getMessage(),
                    "check lnp.oidc.issuer and that this node reaches the provider");
        }
    }
}
