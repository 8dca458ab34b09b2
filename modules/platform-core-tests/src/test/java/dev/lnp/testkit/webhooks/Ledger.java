package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.WebhookReceiver;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * The books of a fault test: acknowledged writes against stored events (the outbox) against deliveries the
 * receiver saw. Asserts acknowledged ⊆ stored ⊆ attempted, every stored event delivered under exactly one
 * delivery id, and nothing delivered that was not stored.
 */
record Ledger(int attempted, int acknowledged, int stored, int delivered, int duplicates) {

    static Ledger settle(Jdbi jdbi, UUID workspace, WriteBurst burst, WebhookReceiver receiver, Duration wait) {
        Map<String, Integer> stored = new HashMap<>(); // outbox id → the write's number
        jdbi.useHandle(h -> h.createQuery("""
                        SELECT id::text AS id, length(payload->>'pad') AS n FROM lnp_core.outbox WHERE workspace_id = :ws
                        """).bind("ws", workspace)
                .map((rs, ctx) -> Map.entry(rs.getString("id"), rs.getInt("n")))
                .forEach(e -> stored.put(e.getKey(), e.getValue())));
        Set<Integer> storedWrites = new HashSet<>(stored.values());
        assertEquals(stored.size(), storedWrites.size(), "one event per write");
        Set<Integer> lost = new TreeSet<>(burst.acknowledged);
        lost.removeAll(storedWrites);
        assertTrue(lost.isEmpty(), "acknowledged writes missing from the database: " + lost);
        Set<Integer> invented = new TreeSet<>(storedWrites);
        invented.removeAll(burst.attempted);
        assertTrue(invented.isEmpty(), "stored events no request asked for: " + invented);

        await(wait, "every stored event delivered (" + stored.size() + ")", () -> {
            Set<String> arrived = new HashSet<>();
            receiver.received().forEach(r -> arrived.add(r.json().path("event_id").asText()));
            return arrived.containsAll(stored.keySet()) && Hooks.count(jdbi, """
                    SELECT count(*) FROM lnp_core.webhook_deliveries WHERE workspace_id = ? AND state = 'delivered'
                    """, workspace) == stored.size();
        });
        Map<String, Set<String>> deliveryIds = new HashMap<>(); // event id → delivery ids seen
        receiver.received().forEach(r -> deliveryIds.computeIfAbsent(r.json().path("event_id").asText(),
                e -> new HashSet<>()).add(r.deliveryId()));
        Set<String> neverCommitted = new HashSet<>(deliveryIds.keySet());
        neverCommitted.removeAll(stored.keySet());
        assertTrue(neverCommitted.isEmpty(), "delivered but never committed: " + neverCommitted);
        deliveryIds.forEach((event, ids) -> assertEquals(1, ids.size(), "event " + event + " under " + ids));
        int delivered = receiver.received().size();
        return new Ledger(burst.attempted.size(), burst.acknowledged.size(), stored.size(), delivered,
                delivered - deliveryIds.size());
    }
}
