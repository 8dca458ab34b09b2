package dev.lnp.web.console;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code GET /favicon.ico}, which every browser asks for on its own: answered 204 (no icon) and cacheable for a
 * day, so that it is neither a 404 logged as a client fault on each console visit nor asked again on every page.
 */
final class Favicon {

    static final String PATH = "/favicon.ico";

    private Favicon() {
    }

    static void answer(ServerRequest req, ServerResponse res) {
        res.status(Status.NO_CONTENT_204);
        res.header(HeaderNames.CACHE_CONTROL, "public, max-age=86400");
        res.send();
    }
}
