package dev.lnp.core.http;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.UUID;
import java.util.regex.Pattern;

/** The request id: the caller's {@code X-Request-Id} when it is sane, else a new one; echoed in the response. */
final class RequestIds {

    static final io.helidon.http.HeaderName HEADER = HeaderNames.create("X-Request-Id");
    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{8,64}");

    private RequestIds() {
    }

    static String of(ServerRequest req, ServerResponse res) {
        String id = req.headers().first(HEADER).filter(v -> SANE.matcher(v).matches())
                .orElseGet(() -> UUID.randomUUID().toString());
        res.header(HEADER, id);
        return id;
    }
}
