package dev.lnp.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.webhooks.Cidr;
import dev.lnp.webhooks.GuardedDnsResolver;
import dev.lnp.webhooks.ReceiverGuard;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.api.WebClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Client ID Metadata Documents (the MCP authorization specification from 2025-11-25; the IETF draft
 * "OAuth Client ID Metadata Document"): a client without registration names itself by an https URL, and the document
 * at that URL (JSON, RFC 7591's client metadata) says who it is and where it may be sent back. The document is
 * fetched from an address someone else chose, so the fetch goes through the webhooks' {@link ReceiverGuard}: internal
 * addresses are refused unless the operator allows their network ({@code lnp.oauth.client_metadata.allowed_networks});
 * no redirect is followed, no proxy used, the body is read up to {@link #MAX_BYTES}, within a timeout.
 *
 * <p>A document is used only when its {@code client_id} is exactly its URL, it lists 1 to 10 acceptable
 * {@code redirect_uris}, and it asks for no client secret. Documents are kept as HTTP caching allows
 * ({@code Cache-Control: max-age}; {@code no-store} or {@code no-cache} keeps nothing), within
 * {@link #MAX_CACHE}; five minutes when the server says nothing.
 */
final class ClientMetadataDocuments {

    /** What a client_id URL gave: the client, or why it cannot be used (told to the person on a page). */
    sealed interface Outcome {
        record Found(Clients.Client client) implements Outcome {
        }

        record Unusable(String reason) implements Outcome {
        }
    }

    static final int MAX_BYTES = 5 * 1024;
    static final Duration DEFAULT_CACHE = Duration.ofMinutes(5);
    static final Duration MAX_CACHE = Duration.ofHours(24);
    private static final int MAX_CACHED = 1000;
    private static final Pattern MAX_AGE = Pattern.compile("max-age\\s*=\\s*\"?(\\d{1,10})");

    private record Cached(Outcome.Found found, Instant until) {
    }

    private final ReceiverGuard guard;
    private final List<Cidr> allowed;
    private final Duration timeout;
    private final Clock clock;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    private volatile WebClient client;

    ClientMetadataDocuments(List<Cidr> allowed, Duration timeout, Clock clock) {
        this.guard = ReceiverGuard.withSystemDns(allowed);
        this.allowed = List.copyOf(allowed);
        this.timeout = timeout;
        this.clock = clock;
    }

    /** Whether a client_id names a metadata document rather than a registered client. */
    static boolean isDocumentUrl(String clientId) {
        return clientId != null && (clientId.startsWith("https://") || clientId.startsWith("http://"));
    }

    Outcome resolve(String url) {
        Cached cached = cache.get(url);
        Instant now = clock.instant();
        if (cached != null && now.isBefore(cached.until())) {
            return cached.found();
        }
        Optional<String> badUrl = urlProblem(url);
        if (badUrl.isPresent()) {
            return new Outcome.Unusable(badUrl.get());
        }
        Fetched fetched = fetch(url);
        if (fetched.outcome() instanceof Outcome.Found found && !fetched.keep().isZero()) {
            if (cache.size() >= MAX_CACHED) {
                // A crude bound: documents are small and refetched on demand, so forgetting all is harmless.
                cache.clear();
            }
            cache.put(url, new Cached(found, now.plus(fetched.keep())));
        } else {
            cache.remove(url);
        }
        return fetched.outcome();
    }

    private Optional<String> urlProblem(String url) {
        URI uri;
        try {
            uri = ReceiverGuard.parse(url);
        } catch (ReceiverGuard.Refused refused) {
            return Optional.of("The client_id is not a usable URL: " + refused.getMessage() + ".");
        }
        if (url.length() > 200) {
            return Optional.of("The client_id URL is longer than 200 characters.");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (path.isEmpty() || path.equals("/")) {
            return Optional.of("A client_id URL must have a path naming the document.");
        }
        if (path.contains("/./") || path.contains("/../") || path.endsWith("/.") || path.endsWith("/..")) {
            return Optional.of("A client_id URL must not contain . or .. path segments.");
        }
        if (uri.getScheme().equalsIgnoreCase("http") && !inAllowedNetwork(uri.getHost())) {
            return Optional.of("A client_id URL must use https (http only on a network the operator allows).");
        }
        return Optional.empty();
    }

    /** http is for local development and tests: a document on a network the operator allowed. */
    private boolean inAllowedNetwork(String host) {
        try {
            var address = guard.addressFor(host);
            return allowed.stream().anyMatch(network -> network.contains(address));
        } catch (ReceiverGuard.Refused refused) {
            return false;
        }
    }

    /** A fetch's outcome and how long HTTP caching lets it be kept. */
    private record Fetched(Outcome outcome, Duration keep) {

        static Fetched unusable(String reason) {
            return new Fetched(new Outcome.Unusable(reason), Duration.ZERO);
        }
    }

    private Fetched fetch(String url) {
        var request = client().get().uri(url).header(HeaderNames.ACCEPT, "application/json");
        try (HttpClientResponse response = request.request()) {
            if (response.status().code() != 200) {
                return Fetched.unusable("The client's metadata document answered HTTP " + response.status().code()
                        + " instead of 200.");
            }
            byte[] body;
            try (InputStream in = response.inputStream()) {
                body = in.readNBytes(MAX_BYTES + 1);
            }
            if (body.length > MAX_BYTES) {
                return Fetched.unusable("The client's metadata document is larger than " + (MAX_BYTES / 1024)
                        + " KB.");
            }
            return new Fetched(parse(url, body),
                    cacheLifetime(response.headers().first(HeaderNames.CACHE_CONTROL).orElse(null)));
        } catch (IOException | UncheckedIOException e) {
            return unreachable(e);
        } catch (RuntimeException e) {
            GuardedDnsResolver.AddressRefused refused = GuardedDnsResolver.AddressRefused.in(e);
            if (refused != null) {
                return Fetched.unusable("The client's metadata document is on an address this platform does not "
                        + "fetch from (" + refused.refused().rule() + "); the operator can allow its network with "
                        + "lnp.oauth.client_metadata.allowed_networks.");
            }
            return unreachable(e);
        }
    }

    private Fetched unreachable(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException || t instanceof java.util.concurrent.TimeoutException) {
                return Fetched.unusable("The client's metadata document did not arrive within "
                        + timeout.toMillis() + " ms.");
            }
        }
        return Fetched.unusable("The client's metadata document could not be fetched.");
    }

    static Outcome parse(String url, byte[] body) {
        JsonNode document;
        try {
            document = Json.mapper().readTree(body);
        } catch (IOException e) {
            return new Outcome.Unusable("The client's metadata document is not JSON.");
        }
        if (document == null || !document.isObject()) {
            return new Outcome.Unusable("The client's metadata document is not a JSON object.");
        }
        if (!url.equals(document.path("client_id").asText(null))) {
            return new Outcome.Unusable("The client's metadata document names another client_id than its own URL.");
        }
        JsonNode uris = document.path("redirect_uris");
        if (!uris.isArray() || uris.isEmpty() || uris.size() > 10) {
            return new Outcome.Unusable("The client's metadata document must list 1 to 10 redirect_uris.");
        }
        List<String> redirectUris = new ArrayList<>();
        for (JsonNode uri : uris) {
            Optional<String> problem = uri.isTextual() ? RedirectUris.problem(uri.asText())
                    : Optional.of("must be a string");
            if (problem.isPresent()) {
                return new Outcome.Unusable("A redirect URI of the client's metadata document " + problem.get());
            }
            redirectUris.add(uri.asText());
        }
        String method = document.path("token_endpoint_auth_method").asText("none");
        if (!method.equals("none") || document.has("client_secret")) {
            return new Outcome.Unusable("Only public clients are accepted: the client's metadata document must not "
                    + "ask for a client secret (token_endpoint_auth_method none).");
        }
        String host = URI.create(url).getHost();
        String name = document.path("client_name").asText("").strip();
        // The name is the document's own claim: the host that vouches for it is shown beside it.
        String shown = (name.isEmpty() ? "Client" : name) + " (" + host + ")";
        if (shown.length() > 200) {
            shown = shown.substring(0, 199) + "…";
        }
        return new Outcome.Found(new Clients.Client(url, shown, List.copyOf(redirectUris)));
    }

    /** The lifetime {@code Cache-Control} allows, capped at {@link #MAX_CACHE}; zero when nothing may be kept. */
    static Duration cacheLifetime(String cacheControl) {
        if (cacheControl == null || cacheControl.isBlank()) {
            return DEFAULT_CACHE;
        }
        String directives = cacheControl.toLowerCase(Locale.ROOT);
        if (directives.contains("no-store") || directives.contains("no-cache")) {
            return Duration.ZERO;
        }
        Matcher maxAge = MAX_AGE.matcher(directives);
        if (!maxAge.find()) {
            return DEFAULT_CACHE;
        }
        Duration asked = Duration.ofSeconds(Long.parseLong(maxAge.group(1)));
        return asked.compareTo(MAX_CACHE) > 0 ? MAX_CACHE : asked;
    }

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
                            .connectTimeout(timeout)
                            .readTimeout(timeout)
                            .shareConnectionCache(false)
                            .build();
                    client = built;
                }
            }
        }
        return built;
    }
}
