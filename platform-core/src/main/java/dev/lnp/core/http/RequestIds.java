package dev.lnp.core.http;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/** The request id: the caller's {@code X-Request-Id} when it is sane, else a new one; echoed in the response. */
final class RequestIds {

    static final io.helidon.http.HeaderName HEADER = HeaderNames.create("X-Request-Id");
    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{8,64}");

    private RequestIds() {
    }

    static String of(ServerRequest req, ServerResponse res) {
        String id = req.headers().first(HEADER).filter(v -> SANE.matcher(v).matches())
                .orElseGet(RequestIds::newId);
        res.header(HEADER, id);
        return id;
    }

    /**
     * A new random (version 4) UUID from the thread's own generator. A request id has to be unique, not
     * unguessable (it authorises nothing), and {@link UUID#randomUUID()} takes its bits from {@code SecureRandom},
     * which on Linux reads {@code /dev/urandom} under a lock: about 1 % of a cached read's CPU.
     */
    static String newId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long mostSignificant = (random.nextLong() & ~0xF000L) | 0x4000L;
        long leastSignificant = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(mostSignificant, leastSignificant).toString();
    }
}
