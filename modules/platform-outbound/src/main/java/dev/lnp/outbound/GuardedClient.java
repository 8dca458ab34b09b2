package dev.lnp.outbound;

import dev.lnp.api.outbound.OutboundRefusal;
import dev.lnp.api.outbound.OutboundRequest;
import dev.lnp.api.outbound.OutboundResponse;
import io.helidon.common.buffers.DataReader;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.api.DnsAddressLookup;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.spi.DnsResolver;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.Optional;

/**
 * Sends requests for an {@link AddressGuard}: redirects are never followed, no proxy is used, the body is read only up
 * to the request's cap, and every new connection goes to an address the guard has just approved.
 */
final class GuardedClient {

    /** Carries a guard refusal out of Helidon's connection set-up. */
    private static final class AddressRefused extends RuntimeException {
        private final OutboundRefusal refusal;

        AddressRefused(OutboundRefusal refusal) {
            super(refusal.getMessage(), refusal, false, false);
            this.refusal = refusal;
        }
    }

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    /** Where a request waits for its answer's headers, so that the wait can end at the timeout. */
    private static final ExecutorService WAITS = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("lnp-outbound-", 0).factory());

    private final AddressGuard guard;
    private volatile WebClient client;

    GuardedClient(AddressGuard guard) {
        this.guard = guard;
    }

    /** Built at the first request, not at start-up: building a client sets up its TLS context (the JDK's trust
     * store), which took seconds on a loaded build machine, and a node may send nothing for a long time. */
    private WebClient client() {
        WebClient built = client;
        if (built == null) {
            synchronized (this) {
                built = client;
                if (built == null) {
                    built = WebClient.builder()
                            .dnsResolver(new GuardedResolver(guard))
                            .followRedirects(false)
                            .proxy(Proxy.noProxy())
                            .connectTimeout(CONNECT_TIMEOUT)
                            .shareConnectionCache(false)
                            .build();
                    client = built;
                }
            }
        }
        return built;
    }

    OutboundResponse send(OutboundRequest request) throws OutboundRefusal, IOException {
        AddressGuard.parse(request.uri().toString());
        var call = client().method(Method.create(request.method())).uri(request.uri()).readTimeout(request.timeout());
        request.headers().forEach((name, value) -> call.header(HeaderNames.create(name), value));
        Future<HttpClientResponse> answer = WAITS.submit(() -> request.body().length == 0
                && request.method().equals("GET") ? call.request() : call.submit(request.body()));
        try {
            return new Answer(answer.get(request.timeout().toMillis(), TimeUnit.MILLISECONDS), request.responseCap());
        } catch (TimeoutException e) {
            // Interrupting the virtual thread closes its socket: the timeout holds whatever the client does meanwhile.
            answer.cancel(true);
            throw new SocketTimeoutException("no answer within " + request.timeout().toMillis() + " ms");
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the answer");
        } catch (ExecutionException e) {
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                if (t instanceof AddressRefused refused) {
                    throw refused.refusal;
                }
                if (t instanceof IOException io) {
                    throw io;
                }
            }
            throw new IOException("the request failed: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** A response whose body ends at the cap. */
    private static final class Answer implements OutboundResponse {
        private final HttpClientResponse response;
        private final CappedStream body;

        Answer(HttpClientResponse response, int cap) {
            this.response = response;
            this.body = new CappedStream(response.inputStream(), cap);
        }

        @Override
        public int status() {
            return response.status().code();
        }

        @Override
        public Optional<String> header(String name) {
            return response.headers().first(HeaderNames.create(name));
        }

        @Override
        public InputStream body() {
            return body;
        }

        @Override
        public boolean truncated() {
            return body.truncated;
        }

        /** Closing drains what is left; a server that already hung up leaves nothing to drain, which is no failure. */
        @Override
        public void close() {
            try {
                body.in.close();
                response.close();
            } catch (IOException | RuntimeException e) {
                // the connection is gone either way
            }
        }
    }

    /** Passes on at most {@code cap} bytes, then ends; notes whether the server had more. */
    private static final class CappedStream extends InputStream {
        private final InputStream in;
        private long left;
        private boolean truncated;

        CappedStream(InputStream in, int cap) {
            this.in = in;
            this.left = cap;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            if (left <= 0) {
                // One byte more tells a body of exactly the cap from a longer one.
                if (!truncated && readUnchecked(new byte[1], 0, 1) > 0) {
                    truncated = true;
                }
                return -1;
            }
            int n = readUnchecked(buffer, offset, (int) Math.min(length, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }

        /** Helidon reports a read timeout or a broken connection unchecked; callers of a stream expect IOException. */
        private int readUnchecked(byte[] buffer, int offset, int length) throws IOException {
            try {
                return in.read(buffer, offset, length);
            } catch (DataReader.InsufficientDataAvailableException e) {
                // A body without length or chunks ends when the server closes the connection (HTTP/1.1 allows it,
                // streaming servers do it): Helidon reports that end as missing data.
                return -1;
            } catch (UncheckedIOException e) {
                throw e.getCause();
            } catch (RuntimeException e) {
                throw new IOException("reading the answer failed: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                in.close();
            } catch (DataReader.InsufficientDataAvailableException e) {
                // the server closed the connection first: nothing was left to drain
            }
        }
    }

    private record GuardedResolver(AddressGuard guard) implements DnsResolver {
        @Override
        public boolean useDefaultJavaResolver() {
            return false;
        }

        @Override
        public InetAddress resolveAddress(String hostname, DnsAddressLookup lookup) {
            try {
                return guard.addressFor(hostname);
            } catch (OutboundRefusal refused) {
                throw new AddressRefused(refused);
            }
        }
    }
}
