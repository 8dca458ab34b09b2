package dev.lnp.core.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RequestIdsTest {

    @Test
    void aNewIdIsAVersion4UuidInItsCanonicalForm() {
        for (int i = 0; i < 1_000; i++) {
            String id = RequestIds.newId();
            UUID parsed = UUID.fromString(id);
            assertEquals(id, parsed.toString());
            assertEquals(4, parsed.version(), id);
            assertEquals(2, parsed.variant(), id);
        }
    }

    @Test
    void idsDrawnOnManyVirtualThreadsAreUnique() {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            IntStream.range(0, 2_000).forEach(t -> threads.submit(() -> {
                Set<String> mine = new HashSet<>();
                for (int i = 0; i < 50; i++) {
                    mine.add(RequestIds.newId());
                }
                ids.addAll(mine);
            }));
        }
        assertEquals(100_000, ids.size());
    }
}
