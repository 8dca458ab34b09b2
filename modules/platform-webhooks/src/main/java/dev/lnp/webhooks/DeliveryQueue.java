package dev.lnp.webhooks;

import static dev.lnp.webhooks.SubscriptionRepository.instant;
import static dev.lnp.webhooks.SubscriptionRepository.strings;

import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.api.internal.mail.TransactionalMailer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
    private final TransactionalMailer mailer;

    public DeliveryQueue(Jdbi jdbi) {
        this(jdbi, null);
    }

    public DeliveryQueue(Jdbi jdbi, TransactionalMailer mailer) {
        this.jdbi = jdbi;
        this.mailer = mailer;
    }

    /**
     * What one fan-out took and made: how many outbox rows, the highest {@code seq} among them (-1: none), how many
     * deliveries it wrote, and those of them it leased to this node (see {@link Lease}).
     */
    public record FanOut(int rows, long highestSeq, int deliveries, List<ClaimedDelivery> leased) {
    }

    /**
     * What a fan-out may lease to this node in the statement that writes the deliveries, so the dispatcher sends them
     * without claiming them first: at most {@code limit} (the node's room), and per subscription what {@code room}
     * says is left for its receiver ({@code perSubscription} when unknown), as {@link #claim} takes them. The rest
     * are written without a lease, for a claim.
     */
    public record Lease(String node, Instant until, int limit, int perSubscription, Map<UUID, Integer> room) {
        public Lease {
            room = Map.copyOf(room);
        }

        /** Leases nothing: every delivery waits for a claim. */
        public static Lease none() {
            return new Lease("", Instant.EPOCH, 0, 0, Map.of());
        }
    }

    /** {@link #fanOut(Instant, int, long, Lease)} from the start of the outbox, leasing nothing: the rows taken. */
    public int fanOut(Instant now, int limit) {
        return fanOut(now, limit, -1, Lease.none()).rows();
    }

    /**
     * Turns up to {@code limit} undispatched outbox rows with a {@code seq} above {@code afterSeq} (-1: from the
     * start; see {@link FanOutFloor}) into one delivery per matching enabled subscription that
     * existed when the event occurred (a new subscription never receives an older backlog), leases what
     * {@code lease} allows of them to this node, and marks the rows dispatched, in one statement: a crash leaves
     * either all or none of it. Rows another node is fanning out are skipped. Leasing here spares the deliveries a
     * node has room for a claim (a statement that waited longest for the CPU under a burst of writes) and a second
     * write of their rows.
     */
    public FanOut fanOut(Instant now, int limit, long afterSeq, Lease lease) {
        UUID token = UUID.randomUUID();
        List<UUID> roomFor = List.copyOf(lease.room().keySet());
        List<Integer> roomLeft = roomFor.stream().map(lease.room()::get).toList();
        List<FanOutRow> result = jdbi.withHandle(h -> h.createQuery("""
                        WITH batch AS (
                            SELECT id, seq, workspace_id, event_name, occurred_at, payload
                              FROM lnp_core.outbox
                             WHERE dispatched_at IS NULL AND seq > :after
                             ORDER BY seq
                             LIMIT :limit
                               FOR UPDATE SKIP LOCKED
                        ), matched AS (
                            SELECT b.id AS event_id, b.seq, b.workspace_id, b.event_name, s.id AS subscription_id,
                                   row_number() OVER (PARTITION BY s.id ORDER BY b.seq)
                                       <= COALESCE(room.left_here, :perSubscription) AS within_room
                              FROM batch b
                              JOIN lnp_core.webhook_subscriptions s ON s.workspace_id = b.workspace_id AND s.enabled
                                   AND s.delivers_from <= b.occurred_at
                              LEFT JOIN unnest(CAST(:roomFor AS uuid[]), CAST(:roomLeft AS integer[]))
                                     AS room (subscription_id, left_here) ON room.subscription_id = s.id
                             WHERE (b.event_name = ANY (s.events)
                                OR '*' = ANY (s.events)
                                OR EXISTS (SELECT 1 FROM unnest(s.events) e
                                            WHERE e LIKE '%.*' AND starts_with(b.event_name, left(e, -1))))
                        ), placed AS (
                            SELECT m.*, m.within_room AND count(*) FILTER (WHERE m.within_room)
                                       OVER (ORDER BY m.seq, m.subscription_id) <= :leaseLimit AS leased
                              FROM matched m
                        ), fanned AS (
                            INSERT INTO lnp_core.webhook_deliveries (id, workspace_id, subscription_id, event_id,
                                        event_name, state, round_started_at, next_attempt_at, created_at,
                                        lease_owner, lease_token, lease_until)
                            SELECT gen_random_uuid(), p.workspace_id, p.subscription_id, p.event_id, p.event_name,
                                   'pending', :now, :now, :now,
                                   CASE WHEN p.leased THEN CAST(:node AS text) END,
                                   CASE WHEN p.leased THEN CAST(:token AS uuid) END,
                                   CASE WHEN p.leased THEN CAST(:leaseUntil AS timestamptz) END
                              FROM placed p
                            ON CONFLICT (event_id, subscription_id) DO NOTHING
                            RETURNING id, workspace_id, subscription_id, event_id, event_name, lease_token
                        ), marked AS (
                            UPDATE lnp_core.outbox o SET dispatched_at = :now FROM batch b WHERE o.id = b.id
                            RETURNING o.seq
                        ), taken AS (
                            SELECT count(*) AS taken, coalesce(max(seq), -1) AS highest FROM marked
                        )
                        SELECT t.taken, t.highest, (SELECT count(*) FROM fanned) AS fanned,
                               l.id, l.lease_token, l.subscription_id, l.workspace_id, l.event_id, l.event_name,
                               'event' AS kind, 0 AS attempts, 0 AS round_attempts,
                               CAST(:now AS timestamptz) AS round_started_at, l.url, l.occurred_at, l.payload, l.secrets
                          FROM taken t
                          LEFT JOIN (
                            SELECT f.*, b.seq, b.occurred_at, b.payload::text AS payload, s.url,
                                   ARRAY(SELECT k.secret FROM lnp_core.webhook_secrets k
                                          WHERE k.subscription_id = f.subscription_id
                                            AND (k.expires_at IS NULL OR k.expires_at > :now)
                                          ORDER BY k.created_at DESC) AS secrets
                              FROM fanned f
                              JOIN batch b ON b.id = f.event_id
                              JOIN lnp_core.webhook_subscriptions s ON s.id = f.subscription_id
                             WHERE f.lease_token IS NOT NULL) l ON true
                         ORDER BY l.seq, l.subscription_id
                        """)
                .bind("limit", limit).bind("now", now).bind("after", afterSeq)
                .bind("perSubscription", lease.perSubscription()).bind("leaseLimit", lease.limit())
                .bindArray("roomFor", UUID.class, roomFor).bindArray("roomLeft", Integer.class, roomLeft)
                .bind("node", lease.node()).bind("token", token).bind("leaseUntil", lease.until())
                .map((rs, ctx) -> new FanOutRow(rs.getInt("taken"), rs.getLong("highest"), rs.getInt("fanned"),
                        rs.getObject("id") == null ? null : claimedDelivery(rs, lease.until())))
                .list());
        // Every row carries the totals; there is one row without a delivery when none was leased.
        FanOutRow first = result.getFirst();
        return new FanOut(first.taken(), first.highest(), first.fanned(),
                result.stream().map(FanOutRow::leased).filter(Objects::nonNull).toList());
    }

    private record FanOutRow(int taken, long highest, int fanned, ClaimedDelivery leased) {}

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
                .map((rs, ctx) -> claimedDelivery(rs, leaseUntil))
                .list());
    }

    /** A row of {@link #claim} or of {@link #fanOut}'s leased deliveries: the same columns. */
    private static ClaimedDelivery claimedDelivery(ResultSet rs, Instant leaseUntil) throws SQLException {
        return new ClaimedDelivery(rs.getObject("id", UUID.class), rs.getObject("lease_token", UUID.class), leaseUntil,
                rs.getObject("subscription_id", UUID.class), rs.getObject("workspace_id", UUID.class),
                rs.getObject("event_id", UUID.class), rs.getString("event_name"), "test".equals(rs.getString("kind")),
                rs.getString("url"), rs.getInt("attempts"), rs.getInt("round_attempts"),
                instant(rs, "round_started_at"), instant(rs, "occurred_at"), rs.getString("payload"),
                strings(rs.getArray("secrets")));
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

    /** A finished attempt of a delivery this node claimed, waiting to be recorded. */
    public record Finished(ClaimedDelivery delivery, Attempt attempt) {}

    /** Records one attempt: {@link #recordAll} with a batch of one. Returns whether the lease was still held. */
    public boolean record(ClaimedDelivery delivery, Attempt attempt, Instant now, Duration disableAfter) {
        return recordAll(List.of(new Finished(delivery, attempt)), now, disableAfter).contains(delivery.id());
    }

    /**
     * Records a batch of attempts and their consequences in one statement: an attempt row each, each delivery's
     * new state (only where this node still holds the lease), and each subscription's failure streak. Then
     * the subscriptions with a failure in the batch are checked against {@code disableAfter}: such a subscription
     * is switched off and its workspace owner gets a notice. All in one explicit transaction: a node that dies
     * before sending the commit leaves nothing of the batch recorded (and its deliveries are attempted again
     * after their leases). One statement and one commit for the batch, not per delivery: recording was two round
     * trips and a commit per delivery, the dispatcher's largest cost per event. Returns the ids of the
     * deliveries whose lease was still held (their new state is recorded).
     */
    public Set<UUID> recordAll(List<Finished> batch, Instant now, Duration disableAfter) {
        int n = batch.size();
        List<UUID> ids = new ArrayList<>(n);
        List<UUID> tokens = new ArrayList<>(n);
        List<Integer> numbers = new ArrayList<>(n);
        List<String> nodes = new ArrayList<>(n);
        List<String> startedAt = new ArrayList<>(n);
        List<Integer> durations = new ArrayList<>(n);
        List<Integer> statuses = new ArrayList<>(n);
        List<String> outcomes = new ArrayList<>(n);
        List<String> errors = new ArrayList<>(n);
        List<String> bodies = new ArrayList<>(n);
        List<Boolean> truncated = new ArrayList<>(n);
        List<String> states = new ArrayList<>(n);
        List<String> nextAttempts = new ArrayList<>(n);
        List<String> lastErrors = new ArrayList<>(n);
        List<String> completed = new ArrayList<>(n);
        for (Finished finished : batch) {
            ClaimedDelivery delivery = finished.delivery();
            Attempt attempt = finished.attempt();
            Outcome outcome = attempt.outcome();
            RetrySchedule.Decision decision = attempt.decision();
            ids.add(delivery.id());
            tokens.add(delivery.leaseToken());
            numbers.add(delivery.attempts() + 1);
            nodes.add(attempt.node());
            startedAt.add(attempt.startedAt().toString());
            durations.add((int) attempt.duration().toMillis());
            statuses.add(outcome.statusCode());
            outcomes.add(attempt.historyOutcome());
            errors.add(outcome.error());
            bodies.add(outcome.responseBody());
            truncated.add(outcome.truncated());
            states.add(decision.state());
            nextAttempts.add(decision.nextAttempt() == null ? null : decision.nextAttempt().toString());
            lastErrors.add(decision.reason() == null || outcome.error() == null ? outcome.error()
                    : outcome.error() + "; " + decision.reason());
            completed.add(decision.isFinal() ? now.toString() : null);
        }
        Streaks streaks = Streaks.of(batch);
        List<UUID> subscriptions = batch.stream().map(f -> f.delivery().subscriptionId()).distinct().toList();
        return jdbi.inTransaction(h -> {
            lockSubscriptions(h, subscriptions);
            Set<UUID> held = new HashSet<>(h.createQuery("""
                        WITH recorded (id, token, attempt, node, started_at, duration_ms, status_code, outcome, error,
                                       response_body, response_truncated, state, next_attempt_at, last_error,
                                       completed_at) AS (
                            SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:tokens AS uuid[]),
                                   CAST(:numbers AS integer[]), CAST(:nodes AS text[]),
                                   CAST(:startedAt AS timestamptz[]), CAST(:durations AS integer[]),
                                   CAST(:statuses AS integer[]), CAST(:outcomes AS text[]), CAST(:errors AS text[]),
                                   CAST(:bodies AS text[]), CAST(:truncated AS boolean[]), CAST(:states AS text[]),
                                   CAST(:nextAttempts AS timestamptz[]), CAST(:lastErrors AS text[]),
                                   CAST(:completed AS timestamptz[]))
                        ), attempt AS (
                            INSERT INTO lnp_core.webhook_attempts (delivery_id, workspace_id, attempt, node, started_at,
                                        duration_ms, status_code, outcome, error, response_body, response_truncated)
                            SELECT d.id, d.workspace_id, r.attempt, r.node, r.started_at, r.duration_ms, r.status_code,
                                   r.outcome, r.error, r.response_body, r.response_truncated
                              FROM recorded r JOIN lnp_core.webhook_deliveries d ON d.id = r.id
                        ), delivery AS (
                            UPDATE lnp_core.webhook_deliveries d
                               SET state = r.state, attempts = d.attempts + 1, round_attempts = d.round_attempts + 1,
                                   next_attempt_at = r.next_attempt_at, lease_owner = NULL, lease_token = NULL,
                                   lease_until = NULL, last_attempt_at = r.started_at, last_status = r.status_code,
                                   last_error = r.last_error, completed_at = r.completed_at
                              FROM recorded r
                             WHERE d.id = r.id AND d.lease_token = r.token
                            RETURNING d.id
                        ), streak AS (
                            UPDATE lnp_core.webhook_subscriptions s
                               SET failing_since = CASE WHEN st.succeeded THEN st.since
                                                        ELSE COALESCE(s.failing_since, st.since) END
                              FROM unnest(CAST(:streakIds AS uuid[]), CAST(:streakSucceeded AS boolean[]),
                                          CAST(:streakSince AS timestamptz[])) AS st (id, succeeded, since)
                             WHERE s.id = st.id
                               AND s.failing_since IS DISTINCT FROM CASE WHEN st.succeeded THEN st.since
                                                                         ELSE COALESCE(s.failing_since, st.since) END
                        )
                        SELECT id FROM delivery
                        """)
                    .bindArray("ids", UUID.class, ids).bindArray("tokens", UUID.class, tokens)
                    .bindArray("numbers", Integer.class, numbers).bindArray("nodes", String.class, nodes)
                    .bindArray("startedAt", String.class, startedAt).bindArray("durations", Integer.class, durations)
                    .bindArray("statuses", Integer.class, statuses).bindArray("outcomes", String.class, outcomes)
                    .bindArray("errors", String.class, errors).bindArray("bodies", String.class, bodies)
                    .bindArray("truncated", Boolean.class, truncated).bindArray("states", String.class, states)
                    .bindArray("nextAttempts", String.class, nextAttempts)
                    .bindArray("lastErrors", String.class, lastErrors).bindArray("completed", String.class, completed)
                    .bindArray("streakIds", UUID.class, streaks.subscriptions())
                    .bindArray("streakSucceeded", Boolean.class, streaks.succeeded())
                    .bindArray("streakSince", String.class, streaks.failingSince())
                    .mapTo(UUID.class).list());
            if (!streaks.failed().isEmpty()) {
                disableIfFailingSince(h, streaks.failed(), now, disableAfter);
            }
            return held;
        });
    }

    /**
     * Locks the batch's subscriptions, in id order, before any of their deliveries. Deleting a subscription locks
     * it first and then deletes its deliveries (the foreign key's cascade), while the statement that records a
     * batch locks deliveries and subscriptions in whatever order PostgreSQL runs its parts. Taken in opposite
     * orders, a delete and a recording deadlocked, and the delete answered 500. Now both lock the subscription
     * first, so one waits for the other; and two nodes recording the same subscriptions lock them in one order.
     */
    private static void lockSubscriptions(Handle h, List<UUID> subscriptions) {
        h.createQuery("""
                        SELECT id FROM lnp_core.webhook_subscriptions WHERE id = ANY (:ids)
                         ORDER BY id FOR NO KEY UPDATE
                        """)
                .bindArray("ids", UUID.class, subscriptions).mapTo(UUID.class).list();
    }

    /**
     * What a batch does to each subscription's failure streak, folded in the order the attempts finished, as
     * recording them one by one would: a success ends the streak, a failure starts one unless one is running.
     * So a subscription whose batch holds a success gets the start of the failures after its last success (none:
     * no streak); one with only failures keeps its running streak or starts one at its first failure. Test
     * deliveries do not count.
     *
     * @param failed the subscriptions with a failed attempt in the batch, to check for switching off
     */
    record Streaks(List<UUID> subscriptions, List<Boolean> succeeded, List<String> failingSince, List<UUID> failed) {
        static Streaks of(List<Finished> batch) {
            Map<UUID, Boolean> succeeded = new LinkedHashMap<>();
            Map<UUID, Instant> since = new HashMap<>();
            Set<UUID> failed = new LinkedHashSet<>();
            for (Finished finished : batch) {
                if (finished.delivery().test()) {
                    continue;
                }
                UUID subscription = finished.delivery().subscriptionId();
                if (finished.attempt().outcome().verdict() == Outcome.Verdict.DELIVERED) {
                    succeeded.put(subscription, true);
                    since.remove(subscription);
                } else {
                    succeeded.putIfAbsent(subscription, false);
                    since.putIfAbsent(subscription, finished.attempt().startedAt());
                    failed.add(subscription);
                }
            }
            List<UUID> subscriptions = List.copyOf(succeeded.keySet());
            List<String> failingSince = new ArrayList<>(subscriptions.size());
            for (UUID subscription : subscriptions) {
                Instant start = since.get(subscription);
                failingSince.add(start == null ? null : start.toString());
            }
            return new Streaks(subscriptions, subscriptions.stream().map(succeeded::get).toList(), failingSince,
                    List.copyOf(failed));
        }
    }

    private void disableIfFailingSince(Handle h, List<UUID> subscriptions, Instant now, Duration disableAfter) {
        List<Notice> notices = h.createQuery("""
                        WITH disabled AS (
                            UPDATE lnp_core.webhook_subscriptions
                               SET enabled = false, disabled_reason = 'failing', updated_at = :now
                             WHERE id = ANY (:ids) AND enabled AND failing_since <= :cutoff
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
                .bindArray("ids", UUID.class, subscriptions).bind("now", now).bind("cutoff", now.minus(disableAfter))
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

    /** Deliveries waiting for an attempt (due or scheduled), for the queue-depth gauge. */
    public long pendingCount() {
        return jdbi.withHandle(h -> h.createQuery(
                        "SELECT count(*) FROM lnp_core.webhook_deliveries WHERE state = 'pending'")
                .mapTo(Long.class).one());
    }

    /** Whether a delivery is still there: one whose subscription was deleted meanwhile went with it. */
    public boolean exists(UUID delivery) {
        return jdbi.withHandle(h -> h.createQuery(
                        "SELECT EXISTS (SELECT 1 FROM lnp_core.webhook_deliveries WHERE id = :id)")
                .bind("id", delivery).mapTo(Boolean.class).one());
    }

    /**
     * Removes finished deliveries (with their attempts) created before {@code cutoff}, then outbox rows dispatched
     * before it that no delivery refers to any more, a bounded batch at a time.
     */
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
