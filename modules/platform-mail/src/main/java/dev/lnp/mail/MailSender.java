package dev.lnp.mail;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Delivers queued mail from this node on a virtual thread: claims due messages, sends each (a few at a time) and
 * records the outcome. A transient failure is retried at once a few times with backoff (Failsafe), then
 * rescheduled in the row with a doubling delay, so a restart loses nothing; after {@code max_attempts} it is
 * marked failed. A permanent failure (a 5xx reply) is marked failed at once. The loop sleeps until a commit in
 * this process wakes it or the poll interval passes (mail queued by another node or by an operator command).
 */
final class MailSender implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(MailSender.class.getName());

    private final MailQueue queue;
    private final MailSettings settings;
    private final SmtpDelivery delivery;
    private final Clock clock;
    private final String node;
    private final RetryPolicy<Object> immediateRetry;
    private final RetryPolicy<Object> databaseRetry;
    private final Semaphore signal = new Semaphore(0);
    private final ExecutorService sends = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("lnp-mail-send-", 0).factory());
    private volatile boolean running;
    private Thread loop;

    MailSender(MailQueue queue, MailSettings settings, Clock clock, String node) {
        this.queue = queue;
        this.settings = settings;
        this.delivery = new SmtpDelivery(settings);
        this.clock = clock;
        this.node = node;
        this.immediateRetry = RetryPolicy.builder()
                .handleIf(e -> e instanceof SmtpDelivery.Failure f && f.transientFailure)
                .withBackoff(settings.immediateRetryDelay(), settings.immediateRetryDelay().multipliedBy(8))
                .withMaxRetries(settings.immediateRetries())
                .build();
        this.databaseRetry = RetryPolicy.builder()
                .handle(org.jdbi.v3.core.JdbiException.class)
                .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))
                .withMaxDuration(settings.lease().dividedBy(2))
                .withMaxRetries(-1)
                .build();
    }

    synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        loop = Thread.ofVirtual().name("lnp-mail-sender").start(this::run);
    }

    /** Something may be due: a message was committed. */
    void wake() {
        if (signal.availablePermits() == 0) {
            signal.release();
        }
    }

    private void run() {
        boolean failing = false;
        while (running) {
            try {
                boolean more = pass();
                if (failing) {
                    LOG.log(Level.INFO, "Mail sender reaches the database again");
                    failing = false;
                }
                if (!more) {
                    await(settings.pollInterval().toMillis());
                }
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                if (!failing) {
                    LOG.log(Level.WARNING, "Mail sender cannot work (will keep trying): " + e.getMessage(), e);
                    failing = true;
                }
                await(Math.min(settings.pollInterval().toMillis(), 2_000));
            }
        }
    }

    private void await(long millis) {
        try {
            if (signal.tryAcquire(millis, TimeUnit.MILLISECONDS)) {
                signal.drainPermits();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Claims and sends one batch; returns whether a full batch was claimed (so there may be more now). */
    private boolean pass() {
        Instant now = clock.instant();
        List<MailQueue.Claimed> claimed = queue.claim(now, settings.concurrency(), node, now.plus(settings.lease()));
        List<Future<?>> started = new ArrayList<>();
        for (MailQueue.Claimed mail : claimed) {
            started.add(sends.submit(() -> attempt(mail)));
        }
        for (Future<?> send : started) {
            try {
                send.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
                return false;
            } catch (java.util.concurrent.ExecutionException e) {
                LOG.log(Level.WARNING, "Mail attempt could not be recorded; it is due again when its lease ends",
                        e.getCause());
            }
        }
        return claimed.size() == settings.concurrency();
    }

    private void attempt(MailQueue.Claimed mail) {
        SmtpDelivery.Failure failure = null;
        try {
            Failsafe.with(immediateRetry).run(() -> delivery.send(mail));
        } catch (RuntimeException e) {
            failure = e instanceof FailsafeException && e.getCause() instanceof SmtpDelivery.Failure f ? f
                    : new SmtpDelivery.Failure(SmtpDelivery.describe(e), true, e);
        }
        SmtpDelivery.Failure outcome = failure;
        // The server has the message (or refused it): worth waiting for the database rather than sending the
        // message again when the lease ends.
        Failsafe.with(databaseRetry).run(() -> {
            if (outcome == null) {
                queue.markSent(mail.id(), node, clock.instant());
            } else {
                record(mail, outcome);
            }
        });
        if (outcome == null) {
            LOG.log(Level.INFO, "Mail {0} ({1}) to {2} sent, attempt {3}", mail.id(), mail.kind(), mail.to(),
                    mail.attempts());
        }
    }

    private void record(MailQueue.Claimed mail, SmtpDelivery.Failure failure) {
        Instant now = clock.instant();
        if (!failure.transientFailure) {
            queue.markFailed(mail.id(), node, now, "permanent: " + failure.getMessage());
            LOG.log(Level.WARNING, "Mail {0} ({1}) to {2} failed permanently: {3}", mail.id(), mail.kind(),
                    mail.to(), failure.getMessage());
        } else if (mail.attempts() >= settings.maxAttempts()) {
            queue.markFailed(mail.id(), node, now, "gave up after " + mail.attempts() + " attempts: "
                    + failure.getMessage());
            LOG.log(Level.WARNING, "Mail {0} ({1}) to {2} failed after {3} attempts: {4}", mail.id(), mail.kind(),
                    mail.to(), mail.attempts(), failure.getMessage());
        } else {
            Duration delay = retryDelay(mail.attempts());
            queue.reschedule(mail.id(), node, now.plus(delay), failure.getMessage());
            LOG.log(Level.INFO, "Mail {0} ({1}) to {2} not sent (attempt {3}), next attempt in {4}: {5}", mail.id(),
                    mail.kind(), mail.to(), mail.attempts(), delay, failure.getMessage());
        }
    }

    /** After attempt n: first_delay · 2^(n-1), at most max_delay. */
    Duration retryDelay(int attempts) {
        Duration delay = settings.firstRetryDelay();
        for (int i = 1; i < attempts && delay.compareTo(settings.maxRetryDelay()) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(settings.maxRetryDelay()) > 0 ? settings.maxRetryDelay() : delay;
    }

    @Override
    public void close() {
        running = false;
        wake();
        if (loop != null) {
            try {
                loop.join(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        sends.shutdownNow();
    }
}
