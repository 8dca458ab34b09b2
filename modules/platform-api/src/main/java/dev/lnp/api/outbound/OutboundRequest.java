package dev.lnp.api.outbound;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * One request for {@link OutboundGuard#send}.
 *
 * @param method      {@code GET}, {@code POST}, {@code PUT}, {@code PATCH} or {@code DELETE}
 * @param uri         where to; checked again when sent
 * @param headers     request headers (no {@code Host}: it comes from the URI)
 * @param body        the body, empty for none
 * @param timeout     how long to wait for the answer's headers and for each further piece of its body
 * @param responseCap how many bytes of the answer's body are read at most
 */
public record OutboundRequest(String method, URI uri, Map<String, String> headers, byte[] body, Duration timeout,
        int responseCap) {

    public OutboundRequest {
        Objects.requireNonNull(uri, "uri");
        if (!method.matches("GET|POST|PUT|PATCH|DELETE")) {
            throw new IllegalArgumentException("not a method this guard sends: " + method);
        }
        headers = Map.copyOf(headers);
        body = body == null ? new byte[0] : body;
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the timeout must be positive: " + timeout);
        }
        if (responseCap < 0) {
            throw new IllegalArgumentException("the response cap must not be negative: " + responseCap);
        }
    }

    public static OutboundRequest post(URI uri, Map<String, String> headers, byte[] body, Duration timeout,
            int responseCap) {
        return new OutboundRequest("POST", uri, headers, body, timeout, responseCap);
    }

    public static OutboundRequest get(URI uri, Map<String, String> headers, Duration timeout, int responseCap) {
        return new OutboundRequest("GET", uri, headers, new byte[0], timeout, responseCap);
    }
}
