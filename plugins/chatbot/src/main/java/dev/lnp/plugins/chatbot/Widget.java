package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A widget row. {@code settings} holds the responder settings, api_key included (never shown); {@code officeHours}
 * is empty when a person may be asked for at any time. {@code identitySecret} signs the site's identity tokens
 * (docs/chatbot.md, "Known visitors"): empty for a widget made before there were secrets, until one is asked for.
 */
record Widget(UUID id, UUID workspaceId, String name, List<String> allowedOrigins, String greeting,
        String accentColor, String position, boolean streaming, boolean humanHandoff, String responder,
        String language, JsonNode settings, Optional<OfficeHours> officeHours, String keyPrefix, Optional<String> publicKey, Instant createdAt,
        Instant updatedAt, Optional<String> identitySecret, boolean requireVerifiedIdentity) {

    boolean allows(String normalizedOrigin) {
        return normalizedOrigin != null && allowedOrigins.contains(normalizedOrigin);
    }
}
