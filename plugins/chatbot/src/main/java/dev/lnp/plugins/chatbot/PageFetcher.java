package dev.lnp.plugins.chatbot;

import dev.lnp.api.outbound.OutboundGuard;
import dev.lnp.api.outbound.OutboundRefusal;
import dev.lnp.api.outbound.OutboundRequest;
import dev.lnp.api.outbound.OutboundResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.SocketTimeoutException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;

/**
 * Fetches the pages and sitemaps the knowledge imports, only through the platform's outbound guard: every address,
 * the first and each redirect's, is checked by the guard (internal networks are refused unless the operator allowed
 * them, {@code lnp.outbound.allowed_networks}), each request waits at most {@link #TIMEOUT}, a body larger than
 * {@link #MAX_BYTES} is refused rather than cut, and the answer must be HTML (a page) or XML (a sitemap). A failure
 * is a {@link FetchFailed} whose message a person reads on the source.
 */
final class PageFetcher {

    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final int MAX_BYTES = 2 * 1024 * 1024;
    static final int MAX_REDIRECTS = 5;
    /** The most pages one sitemap (or one list of addresses) imports. */
    static final int MAX_SITEMAP_URLS = 200;

    /** A fetch that did not give a usable page; the message is for the person reading the source. */
    static final class FetchFailed extends Exception {
        FetchFailed(String message) {
            super(message, null, false, false);
        }
    }

    /** A fetched body, decoded, with the address it finally came from. */
    record Fetched(URI uri, String body) {
    }

    private final Supplier<OutboundGuard> guard;

    PageFetcher(Supplier<OutboundGuard> guard) {
        this.guard = guard;
    }

    /** A page: its HTML. */
    Fetched page(String url) throws FetchFailed {
        return fetch(url, "text/html,application/xhtml+xml;q=0.9", List.of("text/html", "application/xhtml+xml"),
                "an HTML page");
    }

    /** A sitemap: its XML. */
    Fetched sitemap(String url) throws FetchFailed {
        return fetch(url, "application/xml,text/xml;q=0.9", List.of("application/xml", "text/xml"), "a sitemap (XML)");
    }

    private Fetched fetch(String url, String accept, List<String> types, String what) throws FetchFailed {
        String next = url;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            URI uri;
            try {
                uri = guard.get().check(next);
            } catch (OutboundRefusal refused) {
                throw new FetchFailed((hop == 0 ? "" : "Redirected to " + next + ", which is refused: ")
                        + refused.getMessage());
            }
            try (OutboundResponse response = guard.get().send(OutboundRequest.get(uri, Map.of("Accept", accept,
                    "User-Agent", "lnp-knowledge/1"), TIMEOUT, MAX_BYTES))) {
                int status = response.status();
                if (status >= 300 && status < 400 && status != 304) {
                    String location = response.header("Location").orElseThrow(() -> new FetchFailed(
                            "The server answered " + status + " without saying where to (no Location header)."));
                    try {
                        next = uri.resolve(location.strip()).toString();
                    } catch (IllegalArgumentException e) {
                        throw new FetchFailed("The server redirected to an address that is not one: " + location);
                    }
                    continue;
                }
                if (status / 100 != 2) {
                    throw new FetchFailed("The server answered " + status + " for " + uri + ".");
                }
                String type = response.header("Content-Type").orElse("");
                String mime = type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
                if (!types.contains(mime)) {
                    throw new FetchFailed(uri + " is not " + what + ": its content type is "
                            + (mime.isEmpty() ? "missing" : mime) + ".");
                }
                byte[] body;
                try (InputStream in = response.body()) {
                    body = in.readAllBytes();
                }
                if (response.truncated()) {
                    throw new FetchFailed(uri + " is larger than " + (MAX_BYTES / (1024 * 1024)) + " MB.");
                }
                return new Fetched(uri, new String(body, charset(type)));
            } catch (OutboundRefusal refused) {
                throw new FetchFailed(refused.getMessage());
            } catch (SocketTimeoutException e) {
                throw new FetchFailed(uri + " did not answer within " + TIMEOUT.toSeconds() + " seconds.");
            } catch (IOException e) {
                throw new FetchFailed("Could not fetch " + uri + ": " + (e.getMessage() == null
                        ? e.getClass().getSimpleName() : e.getMessage()));
            }
        }
        throw new FetchFailed("More than " + MAX_REDIRECTS + " redirects from " + url + ".");
    }

    private static Charset charset(String contentType) {
        for (String part : contentType.split(";")) {
            String p = part.strip();
            if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
                try {
                    return Charset.forName(p.substring(8).replace("\"", "").strip());
                } catch (RuntimeException e) {
                    return StandardCharsets.UTF_8;
                }
            }
        }
        return StandardCharsets.UTF_8;
    }

    /**
     * The page addresses of a sitemap ({@code <urlset><url><loc>}), read with jsoup's XML parser (which resolves no
     * entities); a sitemap index, another document, an address that is not http(s), or more than
     * {@link #MAX_SITEMAP_URLS} pages is refused in words.
     */
    static List<String> sitemapUrls(String xml) throws FetchFailed {
        Document doc = Jsoup.parse(xml, "", Parser.xmlParser());
        Element root = doc.children().stream().filter(e -> !e.normalName().startsWith("?")).findFirst().orElse(null);
        if (root != null && root.normalName().equals("sitemapindex")) {
            throw new FetchFailed("This is a sitemap index (a list of sitemaps): import each of its sitemaps.");
        }
        if (root == null || !root.normalName().equals("urlset")) {
            throw new FetchFailed("This is not a sitemap: it has no <urlset> element.");
        }
        List<String> urls = new ArrayList<>();
        for (Element loc : root.select("url > loc")) {
            String u = loc.text().strip();
            if (!u.matches("(?i)^https?://\\S+$")) {
                throw new FetchFailed("The sitemap lists an address that is not http(s): " + u);
            }
            if (!urls.contains(u)) {
                urls.add(u);
            }
        }
        if (urls.isEmpty()) {
            throw new FetchFailed("The sitemap lists no page (no <url><loc>).");
        }
        if (urls.size() > MAX_SITEMAP_URLS) {
            throw new FetchFailed("The sitemap lists " + urls.size() + " pages; at most " + MAX_SITEMAP_URLS
                    + " are imported from one sitemap: split it.");
        }
        return urls;
    }
}
