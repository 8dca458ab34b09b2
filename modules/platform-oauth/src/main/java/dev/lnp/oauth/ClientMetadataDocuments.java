package dev.lnp.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.outbound.OutboundGuard;
import dev.lnp.api.outbound.OutboundRefusal;
import dev.lnp.api.outbound.OutboundRequest;
import dev.lnp.api.outbound.OutboundResponse;
import java.io.IOException;
import java.io.InputStream;
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
 * fetched from an address someone else chose, so the fetch goes through the platform's {@link OutboundGuard}: internal
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

    static final String SETTING = "lnp.oauth.client_metadata.allowed_networks";

    private final OutboundGuard platformGuard;
    private final OutboundGuard guard;
    private final Duration timeout;
    private final Clock clock;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    /**
     * @param platformGuard the platform's guard
     * @param allowed       the internal networks the operator lets documents come from ({@value #SETTING})
     */
    ClientMetadataDocuments(OutboundGuard platformGuard, List<String> allowed, Duration timeout, Clock clock) {
        this.platformGuard = platformGuard;
        this.guard = platformGuard.allowing(SETTING, allowed);
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
        if (url.length() > 200) {
            return Optional.of("The client_id URL is longer than 200 characters.");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.of("The client_id is not a usable URL: " + e.getReason() + ".");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (uri.isAbsolute() && uri.getRawFragment() == null && (path.isEmpty() || path.equals("/"))) {
            return Optional.of("A client_id URL must have a path naming the document.");
        }
        if (path.contains("/./") || path.contains("/../") || path.endsWith("/.") || path.endsWith("/..")) {
            return Optional.of("A client_id URL must not contain . or .. path segments.");
        }
        boolean http = "http".equalsIgnoreCase(uri.getScheme());
        try {
            guard.check(url);
        } catch (OutboundRefusal refused) {
            if (refused.rule().equals("blocked_address")) {
                return Optional.of(http ? HTTPS_ONLY : "The client's metadata document is on an address this "
                        + "platform does not fetch from: " + refused.getMessage() + ".");
            }
            return Optional.of("The client_id is not a usable URL: " + refused.getMessage() + ".");
        }
        if (http && !onAllowedInternalNetwork(url)) {
            return Optional.of(HTTPS_ONLY);
        }
        return Optional.empty();
    }

    private static final String HTTPS_ONLY =
            "A client_id URL must use https (http only on an internal network the operator allows).";

    /**
     * http is for local development and tests: a document the platform's own guard would refuse (an internal
     * address) and this feature's networks let through.
     */
    private boolean onAllowedInternalNetwork(String url) {
        try {
            platformGuard.check(url);
            return false;
        } catch (OutboundRefusal refused) {
            return refused.rule().equals("blocked_address");
        }
    }

    /** A fetch's outcome and how long HTTP caching lets it be kept. */
    private record Fetched(Outcome outcome, Duration keep) {

        static Fetched unusable(String reason) {
            return new Fetched(new Outcome.Unusable(reason), Duration.ZERO);
        }
    }

    private Fetched fetch(String url) {
        long started = System.nanoTime();
        var request = OutboundRequest.get(URI.create(url), Map.of("Accept", "application/json"), timeout, MAX_BYTES);
        try (OutboundResponse response = guard.send(request)) {
            if (response.status() != 200) {
                return Fetched.unusable("The client's metadata document answered HTTP " + response.status()
                        + " instead of 200.");
            }
            byte[] body;
            try (InputStream in = response.body()) {
                body = in.readAllBytes();
            }
            if (response.truncated()) {
                return Fetched.unusable("The client's metadata document is larger than " + (MAX_BYTES / 1024)
                        + " KB.");
            }
            return new Fetched(parse(url, body), cacheLifetime(response.header("Cache-Control").orElse(null)));
        } catch (OutboundRefusal refused) {
            return Fetched.unusable("The client's metadata document is on an address this platform does not "
                    + "fetch from: " + refused.getMessage() + ".");
        } catch (IOException | RuntimeException e) {
            boolean late = Duration.ofNanos(System.nanoTime() - started).compareTo(timeout) >= 0;
            return Fetched.unusable(late || timedOut(e)
                    ? "The client's metadata document did not arrive within " + timeout.toMillis() + " ms."
                    : "The client's metadata document could not be fetched.");
        }
    }

    private static boolean timedOut(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
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
}
