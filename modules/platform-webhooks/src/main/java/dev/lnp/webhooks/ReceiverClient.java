package dev.lnp.webhooks;

import dev.lnp.api.outbound.OutboundGuard;
import dev.lnp.api.outbound.OutboundRefusal;
import dev.lnp.api.outbound.OutboundRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Sends one webhook request through the platform's {@link OutboundGuard}: redirects are never followed, no proxy is
 * used, the response body is read only up to a cap, and every new connection goes to an address the guard has just
 * approved.
 */
final class ReceiverClient {

    /** What came back: the status, the start of the body, and the {@code Retry-After} header if any. */
    record Response(int status, String body, boolean truncated, Optional<String> retryAfter) {
    }

    /** The guard refused the receiver's address: nothing was sent. */
    static final class AddressRefused extends RuntimeException {
        AddressRefused(OutboundRefusal refused) {
            super(refused.getMessage(), refused, false, false);
        }
    }

    private final OutboundGuard guard;
    private final Duration timeout;
    private final int responseCap;

    ReceiverClient(OutboundGuard guard, Duration timeout, int responseCap) {
        this.guard = guard;
        this.timeout = timeout;
        this.responseCap = responseCap;
    }

    Response post(URI uri, Map<String, String> headers, byte[] body) throws IOException {
        try (var response = guard.send(OutboundRequest.post(uri, headers, body, timeout, responseCap))) {
            int status = response.status();
            Optional<String> retryAfter = response.header("Retry-After");
            byte[] read;
            try (InputStream in = response.body()) {
                read = in.readAllBytes();
            } catch (RuntimeException | IOException e) {
                // The status decides the outcome; an unreadable body only leaves the history without it.
                return new Response(status, null, false, retryAfter);
            }
            return new Response(status, text(read), response.truncated(), retryAfter);
        } catch (OutboundRefusal refused) {
            throw new AddressRefused(refused);
        }
    }

    /** The body as UTF-8; a cut in the middle of a character or binary content is replaced, not rejected. */
    private static String text(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(bytes)).toString().replace('\u0000', '\uFFFD');
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("a replacing decoder does not throw", e);
        }
    }
}
