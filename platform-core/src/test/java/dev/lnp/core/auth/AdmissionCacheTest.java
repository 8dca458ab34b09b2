package dev.lnp.core.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AdmissionCacheTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final AdmissionCache cache = new AdmissionCache(now::get, Duration.ofNanos(100));

    @Test
    void anAdmissionIsReusedForItsTimeToLiveOnly() {
        var admitted = new AdmissionCache.Admitted(null, null, 1);
        cache.put(hash(1), admitted);
        assertSame(admitted, cache.get(hash(1)), "found by the hash's bytes, not the array");
        now.addAndGet(99);
        assertSame(admitted, cache.get(hash(1)));
        now.addAndGet(1);
        assertNull(cache.get(hash(1)), "expired");
        assertNull(cache.get(hash(2)));
    }

    @Test
    void theKeptHashIsACopyAndEvictionDropsTheEntry() {
        byte[] hash = hash(3);
        cache.put(hash, new AdmissionCache.Admitted(null, null, 3));
        hash[0] = 99;
        assertEquals(3, cache.get(hash(3)).version(), "the caller's array changed afterwards");
        cache.evict(hash(3));
        assertNull(cache.get(hash(3)));
    }

    @Test
    void aFullCacheDropsExpiredEntriesFirstAndEverythingWhenNoneHasExpired() {
        for (int i = 0; i < AdmissionCache.MAX_ENTRIES / 2; i++) {
            cache.put(hash(i), new AdmissionCache.Admitted(null, null, 1));
        }
        now.addAndGet(100);
        for (int i = AdmissionCache.MAX_ENTRIES / 2; i < AdmissionCache.MAX_ENTRIES; i++) {
            cache.put(hash(i), new AdmissionCache.Admitted(null, null, 2));
        }
        cache.put(hash(-1), new AdmissionCache.Admitted(null, null, 3));
        assertEquals(AdmissionCache.MAX_ENTRIES / 2 + 1, cache.size(), "the expired half went");
        assertEquals(2, cache.get(hash(AdmissionCache.MAX_ENTRIES - 1)).version());

        for (int i = 0; cache.size() < AdmissionCache.MAX_ENTRIES; i++) {
            cache.put(hash(1_000_000 + i), new AdmissionCache.Admitted(null, null, 4));
        }
        cache.put(hash(-2), new AdmissionCache.Admitted(null, null, 5));
        assertEquals(1, cache.size(), "none had expired: all went, the new one stays");
        assertTrue(cache.get(hash(-2)) != null);
    }

    private static byte[] hash(int i) {
        return ByteBuffer.allocate(32).putInt(i).array();
    }
}
