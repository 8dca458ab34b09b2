package dev.lnp.webhooks;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import dev.lnp.api.outbound.OutboundGuard;
import dev.lnp.api.internal.events.OutboxWakeSignal;
import dev.lnp.api.internal.platform.PlatformMeters;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;
import org.jdbi.v3.core.JdbiException;

/**
 * Delivers webhooks from this node. Two loops share the work: one fans committed outbox rows out into deliveries,
 * leasing those this node has room for in the same statement; the other claims due deliveries under a lease (the rest
 * of a fan-out, retries, redeliveries, a dead node's). Each leased delivery goes to a virtual thread, which makes the
 * attempt and has it recorded in the {@link AttemptRecorder}'s next batch, waiting for that batch's commit before it
 * lets the delivery go. They are apart so that a slow fan-out (a backlog of outbox rows, PostgreSQL busy with the
 * writes that made them) never leaves the receivers idle while deliveries already fanned out wait: in one loop, each
 * pass refilled a receiver once, after a fan-out of up to a batch, which took 0.3–0.9 s under a burst of posts. The
 * fan-out loop sleeps until a commit wakes it (through {@link dev.lnp.api.internal.events.Notifications}) or the poll interval
 * passes; the claim loop until a fan-out that left deliveries unleased, a redelivery, the poll interval, or room: a
 * receiver's queue half empty after a claim that filled it, or the node's holdings (or its answered deliveries waiting
 * to be recorded) fallen to half. All state is in PostgreSQL: killing the node loses at most the leases it held, which
 * expire and are claimed again (by any node) with the same delivery id.
 */
public final class Dispatcher implements AutoCloseable {

    /** The channel the kernel's OutboxWakes notifies after events commit (and redeliveries notify). */
    public static final String CHANNEL = OutboxWakeSignal.CHANNEL;

    private static final System.Logger LOG = System.getLogger(Dispatcher.class.getName());
    /**
     * How long a writing transaction may stay open and still have its events fanned out by the next pass after its
     * commit; one that stays open longer is found by the scan from the start that comes once per window
     * ({@link FanOutFloor}).
     */
    static final Duration FAN_OUT_WINDOW = Duration.ofMinutes(1);

    private final DeliveryQueue queue;
    private final WebhookSettings settings;
    private final Clock clock;
    private final String node;
    private final Sender sender;
    private final Receivers receivers;
    private final RetrySchedule schedule;
    private final RetryPolicy<Object> databaseRetry;
    /** Attempts in flight on this node, all receivers together. */
    private final Semaphore attemptSlots;
    /** Writes finished attempts in batches, one commit for many deliveries. */
    private final AttemptRecorder recorder;
    /** Deliveries this node holds until their answer is in (waiting for a slot or in flight), and the most it may. */
    private final AtomicInteger held = new AtomicInteger();
    private final int maxHeld;
    /**
     * Answered deliveries waiting for their batch's commit, bounded apart by {@link #maxHeld} (they keep their
     * payload and virtual thread in memory until then). Counting them in {@link #held} let a slow batch (70–115 ms
     * under a burst of posts) use up the node's room, so the fan-out leased little while the receiver was idle.
     */
    private final AtomicInteger unrecorded = new AtomicInteger();
    /** Wakes the fan-out loop: a commit, a redelivery. */
    private final Signal fanOutDue = new Signal();
    /** Wakes the claim loop: new deliveries, a redelivery, room at a receiver or on the node. */
    private final Signal claimDue = new Signal();
    /** Where the fan-out's scan starts; only the fan-out loop (or a test's runOnce) passes. */
    private final FanOutFloor fanOutFloor = new FanOutFloor(FAN_OUT_WINDOW);
    private final Map<UUID, Receivers.Receiver> receiverOfSubscription = new ConcurrentHashMap<>();
    private final Set<UUID> heldIds = ConcurrentHashMap.newKeySet();
    private final ExecutorService attempts = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("lnp-webhook-attempt-", 0).factory());
    private volatile boolean running;
    private final WebhookMeters metrics;
    private final List<Thread> loops = new ArrayList<>();

    public Dispatcher(DeliveryQueue queue, WebhookSettings settings, Clock clock, OutboundGuard guard, String node) {
        this(queue, settings, clock, guard, node, null);
    }

    /** @param metrics where attempts, settled deliveries and their lag are counted; null for none */
    public Dispatcher(DeliveryQueue queue, WebhookSettings settings, Clock clock, OutboundGuard guard, String node,
            PlatformMeters metrics) {
        this.metrics = metrics == null ? null : new WebhookMeters(metrics);
        this.queue = queue;
        this.settings = settings;
        this.clock = clock;
        this.node = node;
        this.sender = new Sender(new ReceiverClient(guard, settings.requestTimeout(), settings.responseCap()),
                settings.requestTimeout(), clock);
        this.receivers = new Receivers(settings);
        this.schedule = new RetrySchedule(RandomGenerator.getDefault());
        this.attemptSlots = new Semaphore(settings.maxInFlight());
        this.recorder = new AttemptRecorder(queue, clock, settings.disableAfter(), settings.batchSize());
        this.maxHeld = settings.maxInFlight() * Receivers.QUEUE_PER_SLOT;
        // An attempt's result is worth waiting for while the database restarts: without it the attempt is
        // repeated once the lease ends. Give up before the lease does.
        this.databaseRetry = RetryPolicy.builder()
                .handle(JdbiException.class)
                .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))
                .withMaxDuration(settings.lease().minus(settings.requestTimeout()))
                .withMaxRetries(-1)
                .build();
    }

    public String node() {
        return node;
    }

    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        loops.add(Thread.ofVirtual().name("lnp-webhook-fan-out")
                .start(() -> loop("fan-out", fanOutDue, () -> fanOut(null))));
        loops.add(Thread.ofVirtual().name("lnp-webhook-dispatcher")
                .start(() -> loop("claims", claimDue, () -> claim(null))));
    }

    /** Something may be due: a redelivery, a reconnection, anything other than {@link #eventsCommitted()}. */
    public void wake() {
        fanOutDue.raise();
        claimDue.raise();
    }

    /**
     * Events committed: the fan-out runs, leases what this node has room for, and wakes the claims only for the rest.
     * Waking the claims on every commit as well made most of them find nothing under a burst of posts (each still a
     * statement on a busy database).
     */
    public void eventsCommitted() {
        fanOutDue.raise();
    }

    /**
     * One pass, for tests driving a controlled clock: fans out, claims what is due now, and waits until those
     * attempts are recorded. Returns how many deliveries were claimed.
     */
    public int runOnce() throws Exception {
        List<Future<?>> started = new ArrayList<>();
        fanOut(started);
        claim(started);
        for (Future<?> attempt : started) {
            attempt.get(settings.lease().toMillis(), TimeUnit.MILLISECONDS);
        }
        return started.size();
    }

    /**
     * Runs {@code pass} until the dispatcher closes: again at once while it says there is more, otherwise after
     * {@code due} is raised or the poll interval passes; while the database cannot be reached, with a growing pause
     * and one warning.
     */
    private void loop(String name, Signal due, BooleanSupplier pass) {
        boolean failing = false;
        long backoffMillis = 200;
        while (running) {
            try {
                boolean more = pass.getAsBoolean();
                if (failing) {
                    LOG.log(Level.INFO, "Webhook dispatcher (" + name + ") reaches the database again");
                    failing = false;
                    backoffMillis = 200;
                }
                if (!more && !due.await(settings.pollInterval().toMillis())) {
                    running = false;
                }
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                if (!failing) {
                    LOG.log(Level.WARNING, "Webhook dispatcher (" + name + ") cannot work (will keep trying): "
                            + e.getMessage(), e);
                    failing = true;
                }
                if (!due.await(backoffMillis)) {
                    running = false;
                }
                backoffMillis = Math.min(backoffMillis * 2, 5_000);
            }
        }
    }

    /** A wake-up call that is kept until the loop next waits; many calls before then count as one. */
    private static final class Signal {
        private final Semaphore permit = new Semaphore(0);

        void raise() {
            if (permit.availablePermits() == 0) {
                permit.release();
            }
        }

        /** Waits until raised or {@code millis} pass; false when interrupted. */
        boolean await(long millis) {
            try {
                if (permit.tryAcquire(millis, TimeUnit.MILLISECONDS)) {
                    permit.drainPermits();
                }
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /**
     * Fans out once, leasing to this node as many of the new deliveries as it has room for, and hands those to their
     * receivers at once; the claim loop is woken for the rest. Returns whether there is probably more at once (a full
     * batch). The futures of started attempts are added to {@code started} when it is not null.
     */
    private boolean fanOut(List<Future<?>> started) {
        Instant now = clock.instant();
        long scanFrom = fanOutFloor.scanFrom(now);
        var lease = new DeliveryQueue.Lease(node, now.plus(settings.lease()), roomOnNode(), perSubscription(),
                roomPerSubscription());
        DeliveryQueue.FanOut fanOut = queue.fanOut(now, settings.batchSize(), scanFrom, lease);
        fanOutFloor.passed(now, scanFrom, fanOut.highestSeq());
        fanOut.leased().forEach(this::learnReceiver);
        dispatchAll(fanOut.leased(), now, started);
        if (fanOut.deliveries() > fanOut.leased().size()) {
            claimDue.raise();
        }
        return fanOut.rows() == settings.batchSize();
    }

    /**
     * Claims once. Returns whether there is probably more to claim at once (as many as were wanted). The futures
     * of started attempts are added to {@code started} when it is not null.
     */
    private boolean claim(List<Future<?>> started) {
        Instant now = clock.instant();
        int wanted = roomOnNode();
        if (wanted == 0) {
            return false; // a finishing attempt wakes the loop
        }
        int perSubscription = perSubscription();
        Map<UUID, Integer> room = roomPerSubscription();
        List<ClaimedDelivery> claimed = queue.claim(now, wanted, perSubscription, room, Set.copyOf(heldIds), node,
                now.plus(settings.lease()));
        List<Receivers.Receiver> filled = noteWhereMoreIsDue(claimed, room, perSubscription);
        dispatchAll(claimed, now, started);
        return claimed.size() == wanted
                || filled.stream().anyMatch(receiver -> receiver.claimAgainNow(settings.perReceiver()));
    }

    /**
     * How many more deliveries this node may take in one statement: room among those before their answer and among
     * those answered but not yet recorded, each bounded by {@link #maxHeld}. Both loops take them, each from what it
     * saw before its statement, so together they may hold up to a batch more than the node's limit (and a receiver's
     * queue up to twice its depth) for as long as those deliveries wait; each still waits only within its lease.
     */
    private int roomOnNode() {
        return Math.max(0, Math.min(Math.min(maxHeld - held.get(), maxHeld - unrecorded.get()),
                settings.batchSize()));
    }

    private int perSubscription() {
        return settings.perReceiver() * Receivers.QUEUE_PER_SLOT;
    }

    private void dispatchAll(List<ClaimedDelivery> deliveries, Instant now, List<Future<?>> started) {
        for (ClaimedDelivery delivery : deliveries) {
            Future<?> attempt = dispatch(delivery, now);
            if (attempt != null && started != null) {
                started.add(attempt);
            }
        }
    }

    private void learnReceiver(ClaimedDelivery delivery) {
        receiverOfSubscription.put(delivery.subscriptionId(), receivers.of(URI.create(delivery.url())));
    }

    /**
     * Learns each claimed subscription's receiver, and tells each receiver whether this claim filled the room asked
     * for one of its subscriptions: then more of its deliveries are probably due, and its queue falling to half
     * wakes the loop ({@link Receivers.Receiver#letGo}). Done before the deliveries are dispatched, so a queue that
     * drains meanwhile still wakes it. Returns the receivers whose room the claim filled.
     */
    private List<Receivers.Receiver> noteWhereMoreIsDue(List<ClaimedDelivery> claimed, Map<UUID, Integer> room,
            int perSubscription) {
        Map<UUID, Integer> taken = new HashMap<>();
        for (ClaimedDelivery delivery : claimed) {
            taken.merge(delivery.subscriptionId(), 1, Integer::sum);
            learnReceiver(delivery);
        }
        Map<Receivers.Receiver, Boolean> filled = new HashMap<>();
        receiverOfSubscription.forEach((subscription, receiver) -> filled.merge(receiver,
                taken.getOrDefault(subscription, 0) >= room.getOrDefault(subscription, perSubscription),
                Boolean::logicalOr));
        filled.forEach(Receivers.Receiver::claimed);
        return filled.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
    }

    /** How many more deliveries to claim for each subscription whose receiver is not idle; the others get all. */
    private Map<UUID, Integer> roomPerSubscription() {
        return Receivers.roomBelowIdle(receiverOfSubscription, settings.perReceiver());
    }

    private Future<?> dispatch(ClaimedDelivery delivery, Instant now) {
        Receivers.Receiver receiver = receiverOfSubscription.get(delivery.subscriptionId());
        if (receiver.breaker.isOpen()) {
            queue.release(delivery, now.plus(receiver.breaker.getRemainingDelay()));
            return null;
        }
        receiver.hold();
        held.incrementAndGet();
        heldIds.add(delivery.id());
        // A delivery leaves its receiver's local queue and the node's holdings once its answer is in, and waits
        // for its batch's commit among the unrecorded: recording no longer stops more being claimed (that capped a
        // busy receiver at its queue depth per commit latency while the recorder was behind).
        AtomicBoolean answered = new AtomicBoolean();
        Runnable answerIsIn = () -> {
            if (!answered.compareAndSet(false, true)) {
                return;
            }
            unrecorded.incrementAndGet();
            // Claim more when this receiver's local queue is half empty and the last claim left some behind: once
            // per claim, not once per attempt (new events and due retries wake the loop on their own).
            if (receiver.letGo(settings.perReceiver())) {
                claimDue.raise();
            }
            if (held.decrementAndGet() == maxHeld / 2) {
                claimDue.raise();
            }
        };
        return attempts.submit(() -> {
            try {
                attemptWhenASlotIsFree(delivery, receiver, answerIsIn);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Webhook delivery " + delivery.id() + " could not be recorded; it will be "
                        + "attempted again when its lease ends", e);
            } finally {
                answerIsIn.run();
                heldIds.remove(delivery.id());
                if (unrecorded.decrementAndGet() == maxHeld / 2) {
                    claimDue.raise();
                }
            }
        });
    }

    /**
     * Waits (on its virtual thread) for one of the receiver's attempt slots and one of the node's, as long as the
     * lease allows; a delivery that cannot start in time goes back to the queue without an attempt. The slots
     * bound requests in flight, so they are given back as soon as the receiver has answered: recording the
     * outcome waits for a commit, and holding a receiver's slot across it capped each receiver at a few
     * deliveries per commit latency (≈ 70/s while the database was busy with other writes).
     */
    private void attemptWhenASlotIsFree(ClaimedDelivery delivery, Receivers.Receiver receiver, Runnable answerIsIn) {
        long deadline = System.nanoTime() + Duration.between(clock.instant(), delivery.leaseUntil())
                .minus(settings.requestTimeout()).minusSeconds(1).toNanos();
        Sender.Result result;
        if (!acquire(receiver.bulkhead::tryAcquirePermit, deadline)) {
            result = new Sender.Deferred(Duration.ZERO);
        } else {
            try {
                if (!acquire(wait -> attemptSlots.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS), deadline)) {
                    result = new Sender.Deferred(Duration.ZERO);
                } else {
                    try {
                        result = attempt(delivery, receiver);
                    } finally {
                        attemptSlots.release();
                    }
                }
            } finally {
                receiver.bulkhead.releasePermit();
            }
        }
        answerIsIn.run();
        record(delivery, result);
    }

    @FunctionalInterface
    private interface TimedAcquire {
        boolean tryAcquire(Duration wait) throws InterruptedException;
    }

    private static boolean acquire(TimedAcquire permit, long deadlineNanos) {
        long wait = deadlineNanos - System.nanoTime();
        if (wait <= 0) {
            return false;
        }
        try {
            return permit.tryAcquire(Duration.ofNanos(wait));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Sender.Result attempt(ClaimedDelivery delivery, Receivers.Receiver receiver) {
        if (clock.instant().plus(settings.requestTimeout()).isAfter(delivery.leaseUntil())) {
            // Too little lease left to finish the request before another node may take the delivery over.
            return new Sender.Deferred(Duration.ZERO);
        }
        if (delivery.secrets().isEmpty()) {
            return new Sender.Attempted(clock.instant(), Duration.ZERO, Outcome.ofFailure("no valid signing secret"));
        }
        return sender.send(delivery, receiver);
    }

    /** Gives a deferred delivery back to the queue, or records an attempt with what follows from it. */
    private void record(ClaimedDelivery delivery, Sender.Result result) {
        switch (result) {
            case Sender.Deferred deferred -> Failsafe.with(databaseRetry).run(
                    () -> queue.release(delivery, clock.instant().plus(deferred.delay())));
            case Sender.Attempted attempted -> {
                Instant now = clock.instant();
                RetrySchedule.Decision decision = schedule.decide(attempted.outcome(), delivery.roundAttempts() + 1,
                        delivery.roundStartedAt(), now, attempted.outcome().retryAfter());
                var record = new DeliveryQueue.Attempt(node, attempted.startedAt(), attempted.duration(),
                        attempted.outcome(), decision);
                boolean held = recordDurably(delivery, record);
                if (!held && deleted(delivery)) {
                    LOG.log(Level.DEBUG, () -> "Webhook delivery " + delivery.id() + " was deleted with its "
                            + "subscription while it was attempted; nothing to record");
                } else if (!held) {
                    LOG.log(Level.WARNING, "Webhook delivery " + delivery.id() + ": the lease ended before the "
                            + "attempt was recorded; another attempt may follow");
                } else if (metrics != null) {
                    metrics.attempt(record.historyOutcome(), decision.state(),
                            Duration.between(delivery.occurredAt(), now));
                }
            }
        }
    }

    /**
     * Whether a delivery whose attempt could not be recorded is gone: deleted with its subscription while it was
     * attempted, which is no lost lease and nothing to warn about. When the database cannot say, it is not.
     */
    private boolean deleted(ClaimedDelivery delivery) {
        try {
            return !queue.exists(delivery.id());
        } catch (JdbiException e) {
            return false;
        }
    }

    /**
     * Records the attempt in the recorder's next batch and waits for its commit. When the batch fails (a row the
     * database refuses, the database away), the attempt is recorded on its own, retried while the database
     * restarts, until shortly before the lease ends.
     */
    private boolean recordDurably(ClaimedDelivery delivery, DeliveryQueue.Attempt attempt) {
        try {
            return recorder.record(delivery, attempt)
                    .get(settings.lease().minus(settings.requestTimeout()).toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.log(Level.DEBUG, "Webhook delivery " + delivery.id() + ": its batch was not recorded ("
                    + e.getMessage() + "); recording it on its own");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the attempt was being recorded", e);
        }
        return Failsafe.with(databaseRetry).get(
                () -> queue.record(delivery, attempt, clock.instant(), settings.disableAfter()));
    }

    @Override
    public void close() {
        List<Thread> started;
        synchronized (this) {
            running = false;
            started = List.copyOf(loops);
        }
        wake();
        for (Thread loop : started) {
            try {
                loop.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        attempts.shutdown();
        try {
            if (!attempts.awaitTermination(settings.requestTimeout().toMillis() + 2_000, TimeUnit.MILLISECONDS)) {
                attempts.shutdownNow();
            }
        } catch (InterruptedException e) {
            attempts.shutdownNow();
            Thread.currentThread().interrupt();
        }
        recorder.close();
    }
}
