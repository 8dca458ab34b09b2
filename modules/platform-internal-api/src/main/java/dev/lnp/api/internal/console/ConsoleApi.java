package dev.lnp.api.internal.console;

import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/** The console's JSON routes ({@code /console/api}): one call and its handler. */
public final class ConsoleApi {

    private ConsoleApi() {
    }

    /** One call of a JSON route. */
    public record Call(ServerRequest req, ServerResponse res, PageExchange exchange) {
    }

    public interface JsonHandler {
        /** The answer's data (wrapped in the v1 envelope), or null for 204. */
        Object handle(Call call);
    }
}
