package dev.lnp.tokens;

import dev.lnp.api.internal.subsystem.Subsystem;
import dev.lnp.api.internal.tokens.SessionTokens;
import java.time.Duration;
import java.util.Map;

/**
 * Signed tokens as a subsystem of the kernel: offers {@link SessionTokens} on the deployment's signing key ring,
 * issued for the deployment's base URL, a new signing key every {@code lnp.tokens.rotation} (an ISO-8601 duration,
 * 24 hours unless set).
 */
public final class TokensSubsystem implements Subsystem {

    @Override
    public Map<Class<?>, Object> offer(Services services) {
        Duration rotation = services.config().get("lnp.tokens.rotation").map(TokensSubsystem::rotation)
                .orElse(Duration.ofHours(24));
        return Map.of(SessionTokens.class, new SigningKeyRing(services.jdbi(), services.clock(),
                services.config().baseUrl().toString(), rotation));
    }

    private static Duration rotation(String value) {
        try {
            return Duration.parse(value);
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalStateException("lnp.tokens.rotation must be an ISO-8601 duration such as PT24H, not "
                    + value, e);
        }
    }
}
