package dev.lnp.webhooks;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.api.WebClient;
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
 * Sends one webhook request. Redirects are never followed, no proxy is used, the response body is read only up
 * to a cap, and every new connection goes to an address the {@link ReceiverGuard} has just approved.
 */
final class ReceiverClient {

    /** What came back: the status, the start of the body, and the {@code Retry-After} header if any. */
    record Response(int status, String body, boolean truncated, Optional<String> retryAfter) {
    }

    private final ReceiverGuard guard;
    private final Duration timeout;
    private final int responseCap;
    private volatile WebClient client;

    ReceiverClient(ReceiverGuard guard, Duration timeout, int responseCap) {
        this.guard = guard;
        this.timeout = timeout;
        this.responseCap = responseCap;
    }

    /** Built at the first delivery, not at start-up: a client sets up its TLS context (the JDK's trust store),
     * a noticeable part of a restart, and a node may have nothing to deliver for a long time. */
    private WebClient client() {
        WebClient built = client;
        if (built == null) {
            synchronized (this) {
                built = client;
                if (built == null) {
                    built = WebClient.builder()
                            .dnsResolver(new GuardedDnsResolver(guard))
                            .followRedirects(false)
                            .proxy(Proxy.noProxy())
                            .connectTimeout(timeout.compareTo(Duration.ofSeconds(5)) < 0 ? timeout
                                    : Duration.ofSeconds(5))
                            .readTimeout(timeout)
                            .shareConnectionCache(false)
                            .build();
                    client = built;
                }
            }
        }
        return built;
    }

    Response post(URI uri, Map<String, String> headers, byte[] body) throws IOException {
        var request = client().post().uri(uri);
        headers.forEach((name, value) -> request.header(HeaderNames.create(name), value));
        try (HttpClientResponse response = request.submit(body)) {
            int status = response.status().code();
            Optional<String> retryAfter = response.headers().first(HeaderNames.RETRY_AFTER);
            byte[] read;
            boolean truncated;
            try (InputStream in = response.inputStream()) {
                read = in.readNBytes(responseCap + 1);
                truncated = read.length > responseCap;
            } catch (RuntimeException | IOException e) {
                // The status decides the outcome; an unreadable body only leaves the history without it.
                return new Response(status, null, false, retryAfter);
            }
            int length = Math.min(read.length, responseCap);
            return new Response(status, text(read, length), truncated, retryAfter);
        } catch (GuardedDnsResolver.AddressRefused e) {
            throw e;
        } catch (RuntimeException e) {
            GuardedDnsResolver.AddressRefused refused = GuardedDnsResolver.AddressRefused.in(e);
            if (refused != null) {
                throw refused;
            }
            throw e;
        }
    }

    /** The body as UTF-8; a cut in the middle of a character or binary content is replaced, not rejected. */
    private static String text(byte[] bytes, int length) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(bytes, 0, length)).toString().replace('\u0000', '\uFFFD');
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("a replacing decoder does not throw", e);
        }
    }
}
