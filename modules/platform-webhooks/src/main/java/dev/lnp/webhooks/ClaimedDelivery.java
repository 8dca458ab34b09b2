package dev.lnp.webhooks;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A delivery this node holds a lease on, with everything one attempt needs.
 *
 * @param leaseToken    proves the lease is still this node's when the attempt is recorded
 * @param leaseUntil    when the lease ends; an attempt that could not finish before it is not started
 * @param attempts      attempts made before this one, in all rounds
 * @param roundAttempts attempts made before this one in the current round
 * @param secrets       the subscription's valid signing secrets, newest first
 */
public record ClaimedDelivery(UUID id, UUID leaseToken, Instant leaseUntil, UUID subscriptionId, UUID workspaceId, UUID eventId,
        String eventName, boolean test, String url, int attempts, int roundAttempts, Instant roundStartedAt,
        Instant occurredAt, String payload, List<String> secrets) {
}
