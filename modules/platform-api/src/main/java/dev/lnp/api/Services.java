package dev.lnp.api;

import java.util.Optional;

/**
 * Services the platform offers (e.g. {@link dev.lnp.api.mail.Mailer}) and
 * services other plugins offer through {@link Registrar#provide}, by their API type.
 */
public interface Services {

    /** The service of this type; empty when nobody offers it (e.g. its plugin is not loaded). */
    <T> Optional<T> service(Class<T> type);

    /** The service of this type, or an {@link IllegalStateException} naming it when nobody offers it. */
    default <T> T require(Class<T> type) {
        return service(type).orElseThrow(() -> new IllegalStateException(
                "no service " + type.getName() + " is offered on this platform; is the plugin that provides it enabled?"));
    }
}
