package dev.lnp.core.auth;

import dev.lnp.core.db.AdmissionCheck;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Admissions this node read from the database in the last few seconds, by key hash, so that a read whose rate
 * position the node's lease already covers needs no admission statement: its transaction re-checks the admission
 * instead ({@link AdmissionCheck}). An entry is used for {@link #TIME_TO_LIVE} at most; then the next request is
 * admitted from the database again, which also records the key's use ({@code last_used_at}, once a minute).
 */
final class AdmissionCache {

    /** How long an admission is reused before the database is asked again. */
    static final Duration TIME_TO_LIVE = Duration.ofSeconds(15);
    /** Beyond this many keys, expired entries are dropped, and all of them if that is not enough. */
    static final int MAX_ENTRIES = 10_000;

    /** A live key's record, its principal and its workspace's admission version when they were read. */
    record Admitted(KeyRecord key, dev.lnp.api.workspace.Principal principal, long version) {
    }

    private record Entry(Admitted admitted, long expiresNanos) {
    }

    private final ConcurrentHashMap<ByteBuffer, Entry> entries = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;
    private final long ttlNanos;

    AdmissionCache() {
        this(System::nanoTime, TIME_TO_LIVE);
    }

    AdmissionCache(LongSupplier nanoTime, Duration timeToLive) {
        this.nanoTime = nanoTime;
        this.ttlNanos = timeToLive.toNanos();
    }

    /** The admission read for {@code hash} less than the time to live ago, or null. */
    Admitted get(byte[] hash) {
        Entry entry = entries.get(ByteBuffer.wrap(hash));
        return entry != null && nanoTime.getAsLong() - entry.expiresNanos < 0 ? entry.admitted : null;
    }

    void put(byte[] hash, Admitted admitted) {
        long now = nanoTime.getAsLong();
        if (entries.size() >= MAX_ENTRIES) {
            entries.values().removeIf(e -> now - e.expiresNanos >= 0);
            if (entries.size() >= MAX_ENTRIES) {
                entries.clear();
            }
        }
        entries.put(ByteBuffer.wrap(hash.clone()), new Entry(admitted, now + ttlNanos));
    }

    void evict(byte[] hash) {
        entries.remove(ByteBuffer.wrap(hash));
    }

    int size() {
        return entries.size();
    }
}
