package dev.lnp.core;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * One piece of start-up work run on its own thread while the main thread does something else (the plugins loaded
 * while the database pool opens). Its result, or its failure unchanged, is taken where the main thread needs it,
 * so a failure reads exactly as it did when the work ran in line.
 */
public final class BackgroundTask<T> {

    private final CompletableFuture<T> result;

    private BackgroundTask(CompletableFuture<T> result) {
        this.result = result;
    }

    /** Starts {@code work} on a new platform thread of this name (not a daemon: start-up work must finish). */
    public static <T> BackgroundTask<T> start(String threadName, Supplier<T> work) {
        var result = new CompletableFuture<T>();
        Thread.ofPlatform().name(threadName).start(() -> {
            try {
                result.complete(work.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return new BackgroundTask<>(result);
    }

    /** Work already done: for callers that have the value in hand. */
    public static <T> BackgroundTask<T> done(T value) {
        return new BackgroundTask<>(CompletableFuture.completedFuture(value));
    }

    /** Waits for the work; its own exception (or error) is rethrown as it was thrown, not wrapped. */
    public T join() {
        Optional<Throwable> failure = failure();
        if (failure.isEmpty()) {
            return result.resultNow();
        }
        if (failure.get() instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure.get() instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException(failure.get());
    }

    /** Waits for the work to end; what it threw, if it failed. */
    public Optional<Throwable> failure() {
        waitForEnd();
        return result.isCompletedExceptionally() ? Optional.of(result.exceptionNow()) : Optional.empty();
    }

    /**
     * The start waits for its own work even when interrupted (a stop requested meanwhile is handled once start-up
     * has returned or failed): the interrupt is kept for the caller.
     */
    private void waitForEnd() {
        boolean interrupted = false;
        while (true) {
            try {
                result.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException e) {
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
