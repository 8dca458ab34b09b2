package dev.lnp.core.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ApiKeysTest {

    @Test
    void theHashIsSha256OfTheKeysUtf8EvenWhenManyThreadsHashAtOnce() throws Exception {
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                HexFormat.of().formatHex(ApiKeys.hash("abc")), "FIPS 180-2's test vector");
        String key = ApiKeys.generate();
        byte[] once = ApiKeys.hash(key);
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<byte[]>> hashes = IntStream.range(0, 2_000)
                    .mapToObj(i -> pool.submit(() -> ApiKeys.hash(i % 2 == 0 ? key : "abc"))).toList();
            for (int i = 0; i < hashes.size(); i++) {
                assertArrayEquals(i % 2 == 0 ? once : ApiKeys.hash("abc"), hashes.get(i).get());
            }
        }
    }

    @Test
    void onlyAsciiLettersDigitsUnderscoreAndDashMakeAKey() {
        String body = "A".repeat(30);
        assertTrue(ApiKeys.hasKeyShape(ApiKeys.generate()));
        assertTrue(ApiKeys.hasKeyShape("lnp_" + body + "az_-09"));
        assertTrue(ApiKeys.hasKeyShape("wks_" + body));
        for (String odd : List.of("é", "\u0663", "\uFF21", " ", ".", "+", "/", "=", "\u0000")) {
            assertFalse(ApiKeys.hasKeyShape("lnp_" + body + odd), "with " + odd);
        }
        assertFalse(ApiKeys.hasKeyShape("abc_" + body), "unknown prefix");
        assertFalse(ApiKeys.hasKeyShape("lnp_short"), "too short");
        assertFalse(ApiKeys.hasKeyShape("lnp_" + "A".repeat(197)), "too long");
    }
}
