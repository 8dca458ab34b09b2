package dev.lnp.plugins.trials;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.events.EventType;
import java.util.List;

/** Events of a trial, published in the trial workspace (so its owner's webhooks can follow the trial). */
final class TrialEvents {

    static final String APPROVED = "trials.trial.approved";
    static final String REVOKED = "trials.trial.revoked";
    static final String EXPIRED = "trials.trial.expired";

    private TrialEvents() {
    }

    static List<EventType> types() {
        JsonNode payload = Json.parse("""
                {"type": "object", "required": ["request_id", "state"], "properties": {
                  "request_id": {"type": "string", "format": "uuid"},
                  "state": {"enum": ["approved", "revoked", "expired"]},
                  "agent": {"type": "object"},
                  "at": {"type": "string", "format": "date-time"}}}
                """);
        return List.of(
                new EventType(APPROVED, "The owner approved an agent trial; the workspace was created", payload,
                        List.of()),
                new EventType(REVOKED, "The owner revoked an agent trial; its key stopped working", payload, List.of()),
                new EventType(EXPIRED, "An agent trial reached its end; its key stopped working", payload, List.of()));
    }
}
