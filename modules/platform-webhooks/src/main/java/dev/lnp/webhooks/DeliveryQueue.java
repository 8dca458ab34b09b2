package dev.lnp.webhooks;

import static dev.lnp.webhooks.SubscriptionRepository.instant;
import static dev.lnp.webhooks.SubscriptionRepository.strings;

import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.core.mail.PlatformMailer;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The dispatcher's side of the delivery tables, across workspaces: fan the outbox out into deliveries, claim
 * due deliveries under a lease, record attempts, keep each subscription's failure streak, purge old history.
 */
public final class DeliveryQueue {

    private static final System.Logger LOG = System.getLogger(DeliveryQueue.class.getName());

    private final Jdbi jdbi;
    /** E-mails the notices this queue stores; null: they are only stored. */
    private final PlatformMailer mailer;

    public DeliveryQueue(Jdbi jdbi) {
        this(jdbi, null);
    }

    public DeliveryQueue(Jdbi jdbi, PlatformMailer mailer) {
        this.jdbi = jdbi;
        this.mailer = mailer;
    }

    /**
     * Turns up to {@code limit} undispatched outbox rows into one delivery per matching enabled subscription that
     * existed when the event occurred (a new subscription never receives an older backlog), and
     * marks the rows dispatched, in one statement: a crash leaves either both or neither. Rows another node is
     * fanning out are skipped. Returns the number of outbox rows taken.
     */
    public int fanOut(Instant now, int limit) {
        return jdbi.withHandle(h -> h.createQuery("""
                        WITH batch AS (
                            SELECT id, workspace_id, event_name, occurred_at
                              FROM lnp_core.outbox
                             WHERE dispatched_at IS NULL
                             ORDER BY seq
                             LIMIT :limit
                               FOR UPDATE SKIP LOCKED
                        ), fanned AS (
                            INSERT INTO lnp_core.webhook_deliveries (id, workspace_id, subscription_id, event_id,
                                        event_name, state, round_started_at, next_attempt_at, created_at)
                            SELECT gen_random_uuid(), b.workspace_id, s.id, b.id, b.event_name, 'pending', :now, :now, :now
                              FROM batch b
                              JOIN lnp_core.webhook_subscriptions s ON s.workspace_id = b.workspace_id AND s.enabled
                                   AND s.delivers_from <= b.occurred_at
                             WHERE (b.event_name = ANY (s.events)
                                OR '*' = ANY (s.events)
                                OR EXISTS (SELECT 1 FROM unnest(s.events) e
                                            WHERE e LIKE '%.*' AND starts_with(b.event_name, left(e, -1))))
                            ON CONFLICT (event_id, subscription_id) DO NOTHING
                        ), marked AS (
                            UPDATE lnp_core.outbox o SET dispatched_at = :now FROM batch b WHERE o.id = b.id
                            RETURNING 1
                        )
                        SELECT count(*) FROM marked
                        """)
                .bind("limit", limit).bind("now", now).mapTo(Integer.class).one());
    }

    /**
     * Leases up to {@code limit} due deliveries until {@code leaseUntil}, oldest due first, skipping rows another
     * node is claiming right now and the deliveries in {@code held} (this node still holds them, waiting or
     * attempting, even if their lease ran out). Each subscription contributes at most what {@code room} says is left for its
     * receiver on this node ({@code perSubscription} when unknown; 0 when its receiver is busy or its circuit is
     * open), so one receiver's backlog never hides another's due deliveries. Subscriptions that are switched off
     * get only test deliveries.
     */
    public List<ClaimedDelivery> claim(Instant now, int limit, int perSubscription, Map<UUID, Integer> room,
            Collection<UUID> held, String node, Instant leaseUntil) {
        UUID token = UUID.randomUUID();
        List<UUID> roomFor = List.copyOf(room.keySet());
        List<Integer> roomLeft = roomFor.stream().map(room::get).toList();
        return jdbi.withHandle(h -> h.createQuery("""
                        WITH RECURSIVE waiting (subscription_id) AS (
                            (SELECT subscription_id FROM lnp_core.webhook_deliveries
                              WHERE state = 'pending' ORDER BY subscription_id LIMIT 1)
                            UNION ALL
                            SELECT (SELECT d.subscription_id FROM lnp_core.webhook_deliveries d
                                     WHERE d.state = 'pending' AND d.subscription_id > w.subscription_id
                                     ORDER BY d.subscription_id LIMIT 1)
                              FROM waiting w WHERE w.subscription_id IS NOT NULL
                        ), candidates AS (
                            SELECT c.id
                              FROM waiting w
                              JOIN lnp_core.webhook_subscriptions s ON s.id = w.subscription_id AND s.enabled
                              LEFT JOIN unnest(CAST(:roomFor AS uuid[]), CAST(:roomLeft AS integer[]))
                                     AS room (subscription_id, left_here) ON room.subscription_id = w.subscription_id
                             CROSS JOIN LATERAL (
                                SELECT d.id FROM lnp_core.webhook_deliveries d
                                 WHERE d.subscription_id = w.subscription_id AND d.state = 'pending'
                                   AND d.next_attempt_at <= :now
                                   AND (d.lease_until IS NULL OR d.lease_until <= :now)
                                   AND NOT (d.id = ANY (:held))
                                 ORDER BY d.next_attempt_at
                                 LIMIT COALESCE(room.left_here, :perSubscription)) c
                            UNION ALL
                            SELECT d.id FROM lnp_core.webhook_deliveries d
                             WHERE d.state = 'pending' AND d.kind = 'test' AND d.next_attempt_at <= :now
                               AND (d.lease_until IS NULL OR d.lease_until <= :now)
                               AND NOT (d.id = ANY (:held))
                        ), due AS (
                            SELECT d.id
                              FROM lnp_core.webhook_deliveries d
                             WHERE d.id = ANY (ARRAY(SELECT id FROM candidates)) -- a few primary-key lookups
                               AND d.state = 'pending'
                               AND (d.lease_until IS NULL OR d.lease_until <= :now)
                             ORDER BY d.next_attempt_at
                             LIMIT :limit
                               FOR UPDATE SKIP LOCKED
                        ), claimed AS (
                            UPDATE lnp_core.webhook_deliveries d
                               SET lease_owner = :node, lease_token = :token, lease_until = :leaseUntil
                              FROM due WHERE d.id = due.id
                            RETURNING d.*
                        )
                        SELECT c.id, c.lease_token, c.subscription_id, c.workspace_id, c.event_id, c.event_name, c.kind,
                               c.attempts, c.round_attempts, c.round_started_at, s.url, o.occurred_at,
                               o.payload::text AS payload,
                               ARRAY(SELECT k.secret FROM lnp_core.webhook_secrets k
                                      WHERE k.subscription_id = c.subscription_id
                                        AND (k.expires_at IS NULL OR k.expires_at > :now)
                                      ORDER BY k.created_at DESC) AS secrets
                          FROM claimed c
                          JOIN lnp_core.webhook_subscriptions s ON s.id = c.subscription_id
                          JOIN lnp_core.outbox o ON o.id = c.event_id
                         ORDER BY c.next_attempt_at
                        """)
                .bind("now", now).bind("limit", limit).bind("perSubscription", perSubscription)
                .bindArray("roomFor", UUID.class, roomFor).bindArray("roomLeft", Integer.class, roomLeft)
                .bindArray("held", UUID.class, held).bind("node", node)
                .bind("token", token).bind("leaseUntil", leaseUntil)
                .map((rs, ctx) -> new ClaimedDelivery(rs.getObject("id", UUID.class),
                        rs.getObject("lease_token", UUID.class), leaseUntil, rs.getObject("subscription_id", UUID.class),
                        rs.getObject("workspace_id", UUID.class), rs.getObject("event_id", UUID.class),
                        rs.getString("event_name"), "test".equals(rs.getString("kind")), rs.getString("url"),
                        rs.getInt("attempts"), rs.getInt("round_attempts"), instant(rs, "round_started_at"),
                        instant(rs, "occurred_at"), rs.getString("payload"), strings(rs.getArray("secrets"))))
                .list());
    }

    /** Gives a claimed delivery back without an attempt (its receiver is busy or its circuit is open). */
    public void release(ClaimedDelivery delivery, Instant notBefore) {
        jdbi.useHandle(h -> h.createUpdate("""
                        UPDATE lnp_core.webhook_deliveries
                           SET lease_owner = NULL, lease_token = NULL, lease_until = NULL,
                               next_attempt_at = GREATEST(next_attempt_at, :notBefore)
                         WHERE id = :id AND lease_token = :token
                        """)
                .bind("id", delivery.id()).bind("token", delivery.leaseToken()).bind("notBefore", notBefore)
                .execute());
    }

    /** One attempt as it went, for the history. */
    public record Attempt(String node, Instant startedAt, Duration duration, Outcome outcome,
            RetrySchedule.Decision decision) {
        String historyOutcome() {
            return decision.state().equals("pending") ? "retry" : decision.state();
        }
    }

    /**
     * Records an attempt and its consequence: the attempt row, the delivery's new state (only while this node
     * still holds the lease), and the subscription's failure streak, in one statement. A failure then checks
     * whether the streak has reached {@code disableAfter}: such a subscription is switched off and its workspace
     * owner gets a notice. All in one explicit transaction: a node that dies before sending the commit leaves
     * nothing half-recorded (and the delivery is attempted again after its lease). Returns whether the lease
     * was still held.
     */
    public boolean record(ClaimedDelivery delivery, Attempt attempt, Instant now, Duration disableAfter) {
        Outcome outcome = attempt.outcome();
        RetrySchedule.Decision decision = attempt.decision();
        boolean delivered = outcome.verdict() == Outcome.Verdict.DELIVERED;
        return jdbi.inTransaction(h -> {
            boolean held = h.createQuery("""
                        WITH attempt AS (
                            INSERT INTO lnp_core.webhook_attempts (delivery_id, workspace_id, attempt, node, started_at,
                                        duration_ms, status_code, outcome, error, response_body, response_truncated)
                            SELECT id, workspace_id, :attempt, :node, :startedAt, :duration, :status, :outcome, :error,
                                   :body, :truncated
                              FROM lnp_core.webhook_deliveries WHERE id = :id
                        ), delivery AS (
                            UPDATE lnp_core.webhook_deliveries
                               SET state = :state, attempts = attempts + 1, round_attempts = round_attempts + 1,
                                   next_attempt_at = :next, lease_owner = NULL, lease_token = NULL, lease_until = NULL,
                                   last_attempt_at = :startedAt, last_status = :status, last_error = :lastError,
                                   completed_at = :completed
                             WHERE id = :id AND lease_token = :token
                            RETURNING 1
                        ), streak_ended AS (
                            UPDATE lnp_core.webhook_subscriptions SET failing_since = NULL
                             WHERE id = :subscription AND :counts AND :delivered AND failing_since IS NOT NULL
                        ), streak_started AS (
                            UPDATE lnp_core.webhook_subscriptions SET failing_since = :startedAt
                             WHERE id = :subscription AND :counts AND NOT :delivered AND failing_since IS NULL
                        )
                        SELECT count(*) FROM delivery
                        """)
                    .bind("id", delivery.id()).bind("token", delivery.leaseToken())
                    .bind("subscription", delivery.subscriptionId()).bind("counts", !delivery.test())
                    .bind("delivered", delivered).bind("attempt", delivery.attempts() + 1).bind("node", attempt.node())
                    .bind("startedAt", attempt.startedAt()).bind("duration", (int) attempt.duration().toMillis())
                    .bind("status", outcome.statusCode()).bind("outcome", attempt.historyOutcome())
                    .bind("error", outcome.error()).bind("body", outcome.responseBody())
                    .bind("truncated", outcome.truncated()).bind("state", decision.state())
                    .bind("next", decision.nextAttempt())
                    .bind("lastError", decision.reason() == null || outcome.error() == null ? outcome.error()
                            : outcome.error() + "; " + decision.reason())
                    .bind("completed", decision.isFinal() ? now : null)
                    .mapTo(Integer.class).one() == 1;
            if (!delivered && !delivery.test()) {
                disableIfFailingSince(h, delivery.subscriptionId(), now, disableAfter);
            }
            return held;
        });
    }

    private void disableIfFailingSince(Handle h, UUID subscription, Instant now, Duration disableAfter) {
        List<Notice> notices = h.createQuery("""
                        WITH disabled AS (
                            UPDATE lnp_core.webhook_subscriptions
                               SET enabled = false, disabled_reason = 'failing', updated_at = :now
                             WHERE id = :id AND enabled AND failing_since <= :cutoff
                            RETURNING id, workspace_id, url, failing_since
                        )
                        INSERT INTO lnp_core.notices (workspace_id, kind, subject_id, recipient, message, created_at)
                        SELECT d.workspace_id, 'webhook_subscription_disabled', d.id, w.owner_email,
                               'The webhook subscription to ' || d.url || ' was switched off: every delivery to it '
                               || 'has failed since ' || to_char(d.failing_since AT TIME ZONE 'UTC',
                                                                 'YYYY-MM-DD HH24:MI "UTC"')
                               || '. Fix the receiver, then switch the subscription on again and use recover '
                               || 'to send what it missed.', :now
                          FROM disabled d JOIN lnp_core.workspaces w ON w.id = d.workspace_id
                        RETURNING id, workspace_id, recipient, message
                        """)
                .bind("id", subscription).bind("now", now).bind("cutoff", now.minus(disableAfter))
                .map((rs, ctx) -> new Notice(rs.getObject("id", UUID.class), rs.getObject("workspace_id", UUID.class),
                        rs.getString("recipient"), rs.getString("message")))
                .list();
        if (mailer != null) {
            notices.forEach(notice -> email(h, notice, now));
        }
    }

    private record Notice(UUID id, UUID workspaceId, String recipient, String message) {}

    /** Queued in the same transaction as the notice, so the owner hears of it once, when it commits. */
    private void email(Handle h, Notice notice, Instant now) {
        try {
            mailer.send(h, new OutgoingMail(notice.workspaceId(), notice.recipient(),
                    "A webhook subscription was switched off", notice.message(), null, "webhook-subscription-disabled"));
            h.createUpdate("UPDATE lnp_core.notices SET emailed_at = :now WHERE id = :id")
                    .bind("now", now).bind("id", notice.id()).execute();
        } catch (IllegalArgumentException e) {
            // An owner address the mail service refuses must not undo recording the attempt: the notice stays
            // readable in the API, not e-mailed.
            LOG.log(System.Logger.Level.WARNING, "Notice " + notice.id() + " not e-mailed: " + e.getMessage());
        }
    }

    /**
     * Removes finished deliveries (with their attempts) created before {@code cutoff}, then outbox rows dispatched
     * before it that no delivery refers to any more, a bounded batch at a time.
     */
    /** Deliveries waiting for an attempt (due or scheduled), for the queue-depth gauge. */
    public long pendingCount() {
        return jdbi.withHandle(h -> h.createQuery(
                        "SELECT count(*) FROM lnp_core.webhook_deliveries WHERE state = 'pending'")
                .mapTo(Long.class).one());
    }

    public int purge(Instant cutoff) {
        int removed = 0;
        int batch;
        do {
            batch = jdbi.withHandle(h -> h.createUpdate("""
                            DELETE FROM lnp_core.webhook_deliveries WHERE id IN (
                                SELECT id FROM lnp_core.webhook_deliveries
                                 WHERE created_at < :cutoff AND state <> 'pending' LIMIT 5000)
                            """)
                    .bind("cutoff", cutoff).execute());
            removed += batch;
        } while (batch == 5000);
        do {
            batch = jdbi.withHandle(h -> h.createUpdate("""
                            DELETE FROM lnp_core.outbox WHERE id IN (
                                SELECT o.id FROM lnp_core.outbox o
                                 WHERE o.dispatched_at < :cutoff
                                   AND NOT EXISTS (SELECT 1 FROM lnp_core.webhook_deliveries d WHERE d.event_id = o.id)
                                 LIMIT 5000)
                            """)
                    .bind("cutoff", cutoff).execute());
            removed += batch;
        } while (batch == 5000);
        return removed;
    }
}
